package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * Strings written as YAML come back as the same strings from a YAML 1.1 reader (SnakeYAML resolves
 * plain scalars as go-yaml v2 does, the reader behind Go clients' YAML): none is read as a number,
 * a boolean, a null or a timestamp.
 */
class YamlQuotingTest {

    private static final List<String> TRICKY =
            List.of(
                    "2",
                    "007",
                    "1.5",
                    "1e3",
                    "0x1F",
                    "0o17",
                    "0b101",
                    "1_000",
                    ".5",
                    "+1",
                    "-1",
                    "12:30",
                    ".inf",
                    "-.Inf",
                    ".NaN",
                    "true",
                    "True",
                    "yes",
                    "Yes",
                    "on",
                    "OFF",
                    "y",
                    "N",
                    "null",
                    "Null",
                    "~",
                    "",
                    "<<",
                    "2026-11-28T09:01:50Z",
                    "2026-11-28",
                    "2026-11-28 09:01:50.5 +01:00",
                    "1.2.3",
                    "a: b",
                    "#x",
                    "- x",
                    "plain words",
                    "v1",
                    "kube-system");

    @Test
    void everyStringIsReadBackAsTheSameString() {
        ObjectNode o = Json.MAPPER.createObjectNode();
        ObjectNode labels = o.putObject("labels");
        for (int i = 0; i < TRICKY.size(); i++) {
            o.put("v" + i, TRICKY.get(i));
            labels.put(TRICKY.get(i), "k" + i); // as map keys too
        }
        String yaml = new String(writeYaml(o), StandardCharsets.UTF_8);
        Map<String, Object> back = new Yaml().load(yaml);
        for (int i = 0; i < TRICKY.size(); i++) {
            assertEquals(TRICKY.get(i), back.get("v" + i), "value " + i + " in\n" + yaml);
        }
        @SuppressWarnings("unchecked")
        Map<Object, Object> keys = (Map<Object, Object>) back.get("labels");
        for (int i = 0; i < TRICKY.size(); i++) {
            assertEquals("k" + i, keys.get(TRICKY.get(i)), "key " + TRICKY.get(i) + " in\n" + yaml);
        }
    }

    @Test
    void ordinaryStringsStayPlain() {
        ObjectNode o =
                Json.MAPPER.createObjectNode().put("name", "web-1").put("image", "nginx:1.27");
        assertEquals(
                "name: web-1\nimage: nginx:1.27\n",
                new String(writeYaml(o), StandardCharsets.UTF_8));
    }

    private static byte[] writeYaml(ObjectNode o) {
        try {
            return Json.YAML.writeValueAsBytes(o);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
