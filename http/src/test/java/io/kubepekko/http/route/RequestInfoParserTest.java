package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Request paths as kube-apiserver's request-info parser reads them: decoded once, segments taken as
 * they are (dot segments are names, never resolved; inner empty segments stay; slashes at either
 * end are dropped).
 */
class RequestInfoParserTest {

    /**
     * The parse as {@code verb group version resource namespace name subresource}: "-" for none, ''
     * for empty.
     */
    private static String parsed(String method, String rawPath) {
        return parsed(method, rawPath, Optional.empty());
    }

    private static String parsed(String method, String rawPath, Optional<String> watch) {
        Optional<RequestInfo> info =
                RequestInfoParser.parse(method, RequestPath.decode(rawPath), watch);
        return info.map(
                        i ->
                                String.join(
                                                " ",
                                                i.verb().wireName(),
                                                i.group().isEmpty() ? "-" : i.group(),
                                                i.version(),
                                                dash(i.resource()),
                                                dash(i.namespace()),
                                                dash(i.name()),
                                                dash(i.subresource()))
                                        + (i.route() == RequestInfo.Route.SERVED
                                                ? ""
                                                : " " + i.route()))
                .orElse("not a resource path");
    }

    private static String dash(String s) {
        return s == null ? "-" : s.isEmpty() ? "''" : s;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "GET    | /api/v1/namespaces/n/configmaps                 | list - v1 configmaps n - -",
                "GET    | /api/v1/namespaces/n/configmaps/c               | get - v1 configmaps n c -",
                "DELETE | /api/v1/namespaces/n/configmaps                 | deletecollection - v1 configmaps n - -",
                "GET    | /apis/apps/v1/namespaces/n/deployments/d/scale  | get apps v1 deployments n d scale",
                "PUT    | /api/v1/namespaces/n/finalize                   | update - v1 namespaces - n finalize",
                "GET    | /api/v1/namespaces/n                            | get - v1 namespaces - n -",
                // dot segments are names, whether sent plain or encoded
                "GET    | /api/v1/namespaces/n/configmaps/%2e%2e          | get - v1 configmaps n .. -",
                "PATCH  | /api/v1/namespaces/n/configmaps/..              | patch - v1 configmaps n .. -",
                "DELETE | /api/v1/namespaces/n/configmaps/%2E%2e          | delete - v1 configmaps n .. -",
                "GET    | /api/v1/namespaces/%2e%2e/configmaps            | list - v1 configmaps .. - -",
                "GET    | /api/v1/namespaces/n/configmaps/.               | get - v1 configmaps n . -",
                "GET    | /api/v1/namespaces/n/%2e%2e                     | list - v1 .. n - -",
                // kube reads what follows a subresource as "other stuff we don't interpret": the
                // request is authorized for the subresource, and no route serves it
                "GET    | /api/v1/namespaces/n/configmaps/%2E%2E/%2e%2e/%2e%2e/namespaces/kube-system/secrets | get - v1 configmaps n .. .. NO_PATH",
                "GET    | /api/v1/namespaces/n/pods/p/proxy/a/b           | get - v1 pods n p proxy NO_PATH",
                "POST   | /api/v1/namespaces/n/configmaps/c/status/x      | create - v1 configmaps n c status NO_PATH",
                // the deprecated watch/ paths kube-apiserver still serves, for GET only
                "GET    | /api/v1/watch/namespaces/n/configmaps           | watch - v1 configmaps n - -",
                "GET    | /api/v1/watch/namespaces/n/configmaps/c         | watch - v1 configmaps n c -",
                "GET    | /apis/apps/v1/watch/deployments                 | watch apps v1 deployments - - -",
                "GET    | /api/v1/watch/namespaces/n                      | watch - v1 namespaces - n -",
                "GET    | /api/v1/watch/namespaces                        | watch - v1 namespaces - - -",
                "GET    | /api/v1/watch/namespaces/n/pods/p/status        | watch - v1 pods n p status NO_PATH",
                "POST   | /api/v1/watch/namespaces/n/configmaps           | watch - v1 configmaps n - - NO_METHOD",
                "DELETE | /api/v1/watch/namespaces/n/configmaps/c         | watch - v1 configmaps n c - NO_METHOD",
                "GET    | /api/v1/watch                                   | not a resource path",
                // kube-apiserver no longer serves proxy/ paths
                "GET    | /api/v1/proxy/namespaces/n/pods/p               | not a resource path",
                // an encoded slash is a slash once decoded, as in Go's URL.Path
                "GET    | /api/v1/namespaces/n/configmaps/a%2fstatus      | get - v1 configmaps n a status",
                "GET    | /api/v1/namespaces/n%2Fconfigmaps               | list - v1 configmaps n - -",
                "GET    | /api/v1/namespaces/n/configmaps/%5c             | get - v1 configmaps n \\ -",
                "GET    | /api/v1/namespaces/n/configmaps/a%25b           | get - v1 configmaps n a%b -",
                // empty segments
                "GET    | /api/v1/namespaces//configmaps                  | list - v1 configmaps '' - -",
                "GET    | /api/v1/namespaces/n/configmaps/                | list - v1 configmaps n - -",
                "GET    | /api/v1/namespaces/n/configmaps//               | list - v1 configmaps n - -",
                "GET    | /apis/apps/v1/namespaces/n/deployments//status  | get apps v1 deployments n '' status",
                "GET    | /api/v1/namespaces/n//configmaps                | get - v1 '' n configmaps -",
                "GET    | /api//v1/namespaces                             | not a resource path",
                "GET    | /apis//v1/deployments                           | not a resource path",
                "GET    | //api/v1/namespaces                             | not a resource path",
                "GET    | /api/v1                                         | not a resource path",
            })
    void parsesPathsAsKubeApiserver(String method, String path, String expected) {
        assertEquals(expected, parsed(method, path));
    }

    /**
     * The watch parameter as kube reads it (any value but false or 0, in any case), and only for a
     * read of a collection: a get of a named object stays a get.
     */
    @ParameterizedTest(name = "{0}?watch={1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/api/v1/namespaces/n/configmaps   | true  | watch",
                "/api/v1/namespaces/n/configmaps   | 1     | watch",
                "/api/v1/namespaces/n/configmaps   | yes   | watch",
                "/api/v1/namespaces/n/configmaps   | True  | watch",
                "/api/v1/namespaces/n/configmaps   | ''    | watch",
                "/api/v1/namespaces/n/configmaps   | false | list",
                "/api/v1/namespaces/n/configmaps   | FALSE | list",
                "/api/v1/namespaces/n/configmaps   | 0     | list",
                "/api/v1/namespaces/n/configmaps/c | true  | get",
                "/api/v1/namespaces/n/configmaps/c | 1     | get",
            })
    void theWatchParameterAsKubeReadsIt(String path, String watch, String verb) {
        assertEquals(verb, parsed("GET", path, Optional.of(watch)).split(" ")[0]);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/api/v1/namespaces/n/configmaps/%2e%2e?watch=1   | /api/v1/namespaces/n/configmaps/%2e%2e",
                "http://example.com:8080/api/v1?x=%2f             | /api/v1",
                "http://example.com                               | /",
                "/a#frag?x                                        | /a",
            })
    void thePathOfATargetIsWhatPrecedesItsQuery(String target, String path) {
        assertEquals(path, RequestPath.pathOf(target));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "/a/%2e%2e/b    | /a/../b",
                "/a%2Fb         | /a/b",
                "/a+b%20c       | /a+b c",
                "/%C3%A9        | /\u00e9",
                "/100%          | /100%",
                "/%zz%4         | /%zz%4",
            })
    void decodesPercentEscapesOnceAndKeepsEverythingElse(String raw, String decoded) {
        assertEquals(decoded, RequestPath.decode(raw));
    }
}
