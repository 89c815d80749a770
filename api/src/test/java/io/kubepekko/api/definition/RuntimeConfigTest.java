package io.kubepekko.api.definition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --runtime-config} read as kube-apiserver reads it: cliflag's ConfigurationMap (comma list
 * of key[=value], trimmed, later values win, every occurrence of the flag adding to one map), then
 * kube-apiserver's rewriting of the core group's keys to {@code /v1} and dropping of {@code
 * api/legacy}.
 */
class RuntimeConfigTest {

    private static Map<String, String> map(String... keyValues) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            out.put(keyValues[i], keyValues[i + 1]);
        }
        return out;
    }

    static Stream<Arguments> flags() {
        return Stream.of(
                Arguments.of("one key", List.of("batch/v1=false"), map("batch/v1", "false")),
                Arguments.of(
                        "a key without a value has the empty value (true)",
                        List.of("networking.k8s.io/v1beta1"),
                        map("networking.k8s.io/v1beta1", "")),
                Arguments.of(
                        "keys and values are trimmed, empty items skipped",
                        List.of(" batch/v1 = false ,, apps/v1=true,"),
                        map("batch/v1", "false", "apps/v1", "true")),
                Arguments.of(
                        "a value may hold '='", List.of("batch/v1=a=b"), map("batch/v1", "a=b")),
                Arguments.of(
                        "a later value of a key wins",
                        List.of("batch/v1=false,apps/v1=true,batch/v1=true"),
                        map("apps/v1", "true", "batch/v1", "true")),
                Arguments.of(
                        "every occurrence of the flag adds to one map",
                        List.of("batch/v1=false", "apps/v1=false", "batch/v1"),
                        map("apps/v1", "false", "batch/v1", "")),
                Arguments.of("v1 is the core group", List.of("v1=false"), map("/v1", "false")),
                Arguments.of("api/v1 too", List.of("api/v1=true"), map("/v1", "true")),
                Arguments.of(
                        "a core resource key turns the whole core group (kube rewrites it)",
                        List.of("api/v1/pods=false"),
                        map("/v1", "false")),
                Arguments.of(
                        "v1/<resource> likewise",
                        List.of("api/all=false,v1/configmaps"),
                        map("api/all", "false", "/v1", "")),
                Arguments.of("api/legacy is dropped", List.of("api/legacy=false"), map()),
                Arguments.of("nothing", List.of(), map()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("flags")
    void readsTheFlagAsKubeApiserverDoes(
            String name, List<String> flagValues, Map<String, String> expected) {
        assertEquals(expected, RuntimeConfig.parse(flagValues).entries());
    }
}
