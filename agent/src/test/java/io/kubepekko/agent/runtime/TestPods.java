package io.kubepekko.agent.runtime;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.file.Path;
import java.util.List;

/** Pods written as relaxed JSON (single quotes, unquoted names) and a node to build them on. */
final class TestPods {
    private TestPods() {}

    private static final JsonMapper MAPPER =
            JsonMapper.builder()
                    .enable(
                            JsonReadFeature.ALLOW_SINGLE_QUOTES,
                            JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
                    .build();

    static JsonNode json(String relaxed) {
        try {
            return MAPPER.readTree(relaxed);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static final long GI = 1L << 30;

    static NodeContext node(Path root) {
        return new NodeContext(
                "node-1",
                root,
                List.of("192.168.1.10"),
                List.of(),
                "",
                ResolvConf.parse("nameserver 10.0.0.2\nsearch example.org\noptions edns0\n"),
                8 * GI,
                4000,
                8 * GI,
                100 * GI);
    }

    static JsonNode container(JsonNode pod, String name) {
        return EnvironmentBuilder.findContainer(pod, name).orElseThrow();
    }
}
