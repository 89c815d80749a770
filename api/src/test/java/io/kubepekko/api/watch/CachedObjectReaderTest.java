package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.selector.FieldSelector;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reader parses only metadata and the selectable fields; what it keeps must equal what the
 * whole tree gives, for kinds whose selectable fields sit deep, are renamed, or are absent.
 */
class CachedObjectReaderTest {

    private static final Registry REGISTRY = Registry.builtin();

    static Stream<Arguments> objects() {
        return Stream.of(
                Arguments.of(
                        "pods",
                        """
                        {"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"ns","resourceVersion":"7",
                          "labels":{"app":"web","tier":"front"},"annotations":{"big":"x"},
                          "managedFields":[{"manager":"m","fieldsV1":{"f:spec":{}}}]},
                         "spec":{"nodeName":"n1","restartPolicy":"Always","schedulerName":"default-scheduler",
                          "serviceAccountName":"sa","hostNetwork":true,"containers":[{"name":"c","image":"i"}]},
                         "status":{"phase":"Running","podIP":"10.0.0.1","conditions":[{"type":"Ready"}]}}"""),
                Arguments.of(
                        "pods",
                        """
                        {"metadata":{"name":"bare","namespace":"ns","resourceVersion":"8"},"spec":{"containers":[]}}"""),
                Arguments.of(
                        "events",
                        """
                        {"metadata":{"name":"e","namespace":"ns","resourceVersion":"9"},
                         "involvedObject":{"kind":"Pod","name":"p","namespace":"ns","uid":"u"},
                         "reason":"Started","source":{"component":"kubelet"},"type":"Normal"}"""),
                Arguments.of(
                        "jobs",
                        """
                        {"metadata":{"name":"j","namespace":"ns","resourceVersion":"10","labels":{}},
                         "status":{"succeeded":3}}"""),
                Arguments.of(
                        "nodes",
                        """
                        {"metadata":{"name":"n","resourceVersion":"11"},"spec":{"unschedulable":true}}"""),
                Arguments.of(
                        "secrets",
                        """
                        {"metadata":{"name":"s","namespace":"ns","resourceVersion":"12"},"type":"Opaque",
                         "data":{"k":"dg=="}}"""));
    }

    @ParameterizedTest(name = "{0} {index}")
    @MethodSource("objects")
    void keepsWhatTheWholeTreeGives(String resource, String json) {
        ResourceType type =
                REGISTRY.all().stream()
                        .filter(t -> t.resource().equals(resource))
                        .findFirst()
                        .orElseThrow();
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        CachedObject read = new CachedObjectReader(type).read(bytes);

        ObjectNode whole = Json.parseTrusted(bytes);
        assertEquals(
                new ObjectKey(ObjectMeta.namespace(whole), ObjectMeta.name(whole)), read.key());
        assertEquals(Long.parseLong(ObjectMeta.resourceVersion(whole)), read.resourceVersion());
        assertEquals(ObjectMeta.labels(whole), read.labels());
        assertEquals(FieldSelector.valueReader(type).apply(whole), read.fields());
        assertArrayEquals(bytes, read.json(), "the stored bytes are kept as they are");
    }
}
