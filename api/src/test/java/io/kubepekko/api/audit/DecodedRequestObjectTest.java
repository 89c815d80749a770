package io.kubepekko.api.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The request object kube's audit records for a create or update: the body as its codec decodes it.
 */
class DecodedRequestObjectTest {

    private static final Registry REGISTRY = Registry.builtin();

    private static ServedKind served(String group, String version, String resource) {
        return REGISTRY.served(group, version, resource).orElseThrow();
    }

    private static ObjectNode json(String text) {
        return Json.parseTrusted(text.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> fieldNames(JsonNode n) {
        return n.properties().stream().map(Map.Entry::getKey).toList();
    }

    @Test
    void aPodIsRecordedWithItsDefaultsTypeMetaAndNullCreationTimestamp() {
        ObjectNode sent =
                json(
                        "{'metadata':{'name':'p'},"
                                + "'spec':{'containers':[{'name':'c','image':'nginx:1.27'}]}}");
        ObjectNode before = sent.deepCopy();
        JsonNode recorded = DecodedRequestObject.of(served("", "v1", "pods"), sent);

        assertEquals(before, sent, "the body sent is not changed");
        assertEquals(List.of("kind", "apiVersion", "metadata", "spec"), fieldNames(recorded));
        assertEquals("Pod", recorded.path("kind").asText());
        assertEquals("v1", recorded.path("apiVersion").asText());
        assertTrue(recorded.at("/metadata/creationTimestamp").isNull());
        assertFalse(
                recorded.path("metadata").has("namespace"),
                "kube records the object before it takes the request's namespace");
        assertEquals("Always", recorded.at("/spec/restartPolicy").asText());
        assertEquals("ClusterFirst", recorded.at("/spec/dnsPolicy").asText());
        assertEquals("IfNotPresent", recorded.at("/spec/containers/0/imagePullPolicy").asText());
        assertEquals(
                "/dev/termination-log",
                recorded.at("/spec/containers/0/terminationMessagePath").asText());
    }

    @Test
    void fieldsTheSchemaDoesNotKnowAreDroppedAsATypedDecodeDropsThem() {
        JsonNode recorded =
                DecodedRequestObject.of(
                        served("", "v1", "configmaps"),
                        json(
                                "{'metadata':{'name':'c','bogus':1},'data':{'k':'v'},"
                                        + "'extra':{'a':'b'}}"));
        assertFalse(recorded.has("extra"), recorded.toString());
        assertFalse(recorded.path("metadata").has("bogus"), recorded.toString());
        assertEquals("v", recorded.at("/data/k").asText());
    }

    @Test
    void anUpdateKeepsItsCreationTimestampAndWhatItSet() {
        ObjectNode sent =
                json(
                        "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p',"
                                + "'creationTimestamp':'2026-01-02T03:04:05Z'},"
                                + "'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'i',"
                                + "'imagePullPolicy':'Never'}]}}");
        JsonNode recorded = DecodedRequestObject.of(served("", "v1", "pods"), sent);
        assertEquals("2026-01-02T03:04:05Z", recorded.at("/metadata/creationTimestamp").asText());
        assertEquals("Never", recorded.at("/spec/restartPolicy").asText());
        assertEquals("Never", recorded.at("/spec/containers/0/imagePullPolicy").asText());
    }

    @Test
    void aKindWithoutDefaultsGetsOnlyItsTypeMetaAndTheNullTimestamp() {
        JsonNode recorded =
                DecodedRequestObject.of(
                        served("", "v1", "configmaps"),
                        json("{'metadata':{'name':'c'},'data':{'k':'v'}}"));
        assertEquals(
                json(
                        "{'kind':'ConfigMap','apiVersion':'v1',"
                                + "'metadata':{'name':'c','creationTimestamp':null},'data':{'k':'v'}}"),
                recorded);
    }

    @Test
    void aServedVersionIsDefaultedThroughItsStorageAndRecordedInItsOwnVersion() {
        ObjectNode sent =
                json(
                        "{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'e'},"
                                + "'eventTime':'2026-01-02T03:04:05.000000Z','type':'Normal','action':'Started',"
                                + "'reason':'Started','note':'hello','reportingController':'c',"
                                + "'reportingInstance':'i','regarding':{'kind':'Pod','name':'p'}}");
        JsonNode recorded = DecodedRequestObject.of(served("events.k8s.io", "v1", "events"), sent);
        assertEquals("events.k8s.io/v1", recorded.path("apiVersion").asText());
        assertEquals("Event", recorded.path("kind").asText());
        assertEquals("hello", recorded.path("note").asText());
        assertEquals("p", recorded.at("/regarding/name").asText());
        assertFalse(recorded.has("message"), "not in core/v1's field names");
    }

    @Test
    void aBodyThatIsNotAnObjectIsRecordedAsSent() throws Exception {
        JsonNode list = Json.MAPPER.readTree("[1,2]");
        assertSame(list, DecodedRequestObject.of(served("", "v1", "pods"), list));
    }
}
