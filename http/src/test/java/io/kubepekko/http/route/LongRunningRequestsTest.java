package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * kube-apiserver's long-running requests: watches, the streaming subresources and the profiler;
 * never a list, however large.
 */
class LongRunningRequestsTest {

    @ParameterizedTest(name = "{0} {1}{2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "GET  | /api/v1/namespaces/n/configmaps          | ''       | false",
                "GET  | /api/v1/namespaces/n/configmaps          | ?watch=1 | true",
                "GET  | /api/v1/namespaces/n/configmaps/c        | ''       | false",
                "GET  | /api/v1/namespaces/n/configmaps/c        | ?watch=1 | false",
                "GET  | /api/v1/watch/namespaces/n/configmaps/c  | ''       | true",
                "GET  | /api/v1/watch/namespaces/n/configmaps    | ''       | true",
                "GET  | /api/v1/namespaces/n/pods/p/log          | ''       | true",
                "POST | /api/v1/namespaces/n/pods/p/exec         | ''       | true",
                "GET  | /api/v1/namespaces/n/pods/p/attach       | ''       | true",
                "POST | /api/v1/namespaces/n/pods/p/portforward  | ''       | true",
                "GET  | /api/v1/nodes/n/proxy                    | ''       | true",
                "GET  | /api/v1/namespaces/n/services/s/proxy    | ''       | true",
                "GET  | /api/v1/namespaces/n/pods/p/status       | ''       | false",
                "POST | /api/v1/namespaces/n/serviceaccounts/s/token | ''   | false",
                "GET  | /debug/pprof/profile                     | ''       | true",
                "GET  | /healthz                                 | ''       | false",
                "GET  | /openapi/v2                              | ''       | false",
            })
    void isKubesLongRunningCheck(String method, String path, String query, boolean expected) {
        Optional<String> watch = query.contains("watch=") ? Optional.of("1") : Optional.empty();
        assertEquals(
                expected,
                LongRunningRequests.check(RequestInfoParser.parse(method, path, watch), path));
    }
}
