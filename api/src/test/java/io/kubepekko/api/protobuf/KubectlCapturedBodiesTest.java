package io.kubepekko.api.protobuf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The protobuf bodies real kubectl sends (fixtures captured from the binary) decode to the objects
 * it means.
 */
class KubectlCapturedBodiesTest {

    private static String resource(String name) throws IOException {
        try (InputStream in =
                KubectlCapturedBodiesTest.class.getResourceAsStream("kubectl/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest(name = "kubectl create {0}")
    @ValueSource(
            strings = {
                "configmap",
                "secret",
                "namespace",
                "serviceaccount",
                "deployment",
                "service",
                "job",
                "cronjob",
                "role",
                "rolebinding"
            })
    void decodesToTheExpectedObject(String kind) throws IOException {
        byte[] body = HexFormat.of().parseHex(resource("create-" + kind + ".hex").trim());
        JsonNode expected = Json.MAPPER.readTree(resource("create-" + kind + ".json"));
        Envelope.Unknown envelope = Envelope.decode(body);
        JsonNode decoded =
                ProtobufBodies.builtin()
                        .decode(
                                body,
                                ProtobufBodies.kindOf(
                                        Json.MAPPER
                                                .createObjectNode()
                                                .put("apiVersion", envelope.apiVersion())
                                                .put("kind", envelope.kind())));
        assertEquals(expected, decoded);
    }
}
