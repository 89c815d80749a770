package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a write may leave stored and the options it may carry: the object size limit ({@code
 * --storage-max-object-bytes}, here 4 KiB) on every write path, the server's own writes included;
 * the fieldManager option; malformed strategic merge directives.
 */
class WriteLimitsIT {

    private static final int LIMIT = 4096;

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s -> s.withConfig("kubepekko.storage.max-object-bytes = " + LIMIT));

    private static final String TOO_LARGE = "etcdserver: request is too large";
    private static final String MERGE = "application/merge-patch+json";
    private static final String STRATEGIC = "application/strategic-merge-patch+json";
    private static final String APPLY = "application/apply-patch+yaml";
    private static final AtomicInteger names = new AtomicInteger();

    private static String unique(String prefix) {
        return prefix + names.incrementAndGet();
    }

    private static String newNamespace() {
        String ns = unique("limits-");
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String configMap(String name, int dataBytes) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':{'k':'"
                        + "x".repeat(dataBytes)
                        + "'}}");
    }

    private static String deployment(String name) {
        return json(
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                        + name
                        + "'},"
                        + "'spec':{'replicas':1,'selector':{'matchLabels':{'app':'f'}},"
                        + "'template':{'metadata':{'labels':{'app':'f'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}}");
    }

    /**
     * etcd's refusal, as a 413: kube-apiserver passes it on as a 500, though the client's object is
     * too large.
     */
    private static void assertTooLarge(Response r) {
        ObjectNode status = r.assertFailure(413, "RequestEntityTooLarge");
        assertEquals(TOO_LARGE, status.path("message").asText());
    }

    private static int size(Response r) {
        return r.text().getBytes(StandardCharsets.UTF_8).length;
    }

    @Nested
    class ObjectSize {

        @Test
        void createOverTheLimitIsRefusedWithEtcdsErrorButADryRunIsNot() {
            String cms = "/api/v1/namespaces/default/configmaps";
            String name = unique("big");
            assertTooLarge(api.post(cms, configMap(name, LIMIT)));
            api.get(cms + "/" + name).assertCode(404);
            api.post(cms + "?dryRun=All", configMap(name, LIMIT)).assertCode(201);
            api.get(cms + "/" + name).assertCode(404);
        }

        @Test
        void patchesGrowAnObjectOnlyUpToTheLimitAndItCanStillBeReplaced() {
            String path = "/apis/apps/v1/namespaces/default/deployments/" + unique("grow");
            api.create(
                    "/apis/apps/v1/namespaces/default/deployments",
                    deployment(path.substring(path.lastIndexOf('/') + 1)));
            int refused = 0;
            for (int i = 0; i < 20; i++) {
                Response r =
                        api.patch(
                                path,
                                MERGE,
                                "{\"metadata\":{\"annotations\":{\"a"
                                        + i
                                        + "\":\""
                                        + "v".repeat(700)
                                        + "\"}}}");
                if (r.code() == 413) {
                    assertTooLarge(r);
                    refused++;
                } else {
                    r.assertCode(200);
                }
                assertTrue(size(api.get(path).assertCode(200)) <= LIMIT);
            }
            assertTrue(refused > 10, "refused " + refused);
            ObjectNode current = api.get(path).json();
            ((ObjectNode) current.get("metadata")).remove("annotations");
            api.put(path, current.toString()).assertCode(200);
        }

        @Test
        void statusWritesAndApplyAreLimitedToo() {
            String name = unique("st");
            String path = "/apis/apps/v1/namespaces/default/deployments/" + name;
            api.create("/apis/apps/v1/namespaces/default/deployments", deployment(name));
            assertTooLarge(
                    api.patch(
                            path + "/status",
                            MERGE,
                            "{\"status\":{\"conditions\":[{\"type\":\"Progressing\","
                                    + "\"status\":\"True\",\"message\":\""
                                    + "m".repeat(LIMIT)
                                    + "\"}]}}"));
            String applied = unique("applied");
            assertTooLarge(
                    api.patch(
                            "/api/v1/namespaces/default/configmaps/" + applied + "?fieldManager=m",
                            APPLY,
                            configMap(applied, LIMIT)));
        }

        /**
         * The namespace controller's delete of an object with a finalizer would add its
         * deletionTimestamp past the limit: refused, reported on the namespace, the object left as
         * it was, the server up.
         */
        @Test
        void theServersOwnWritesCannotExceedTheLimitAndSurviveTheRefusal() {
            String ns = newNamespace();
            String cms = "/api/v1/namespaces/" + ns + "/configmaps";
            String name = "held";
            String probe =
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                            + name
                            + "\",\"finalizers\":[\"example.com/hold\"]},\"data\":{\"k\":\"\"}}";
            int base = size(api.post(cms + "?dryRun=All", probe).assertCode(201));
            // Stored with its resourceVersion (under 40 bytes): just under the limit; a
            // deletionTimestamp
            // and grace period (about 70 bytes) take it over.
            String held =
                    probe.replace("\"k\":\"\"", "\"k\":\"" + "x".repeat(LIMIT - base - 40) + "\"");
            api.post(cms, held).assertCode(201);
            ObjectNode before = api.get(cms + "/" + name).json();
            assertTrue(size(api.get(cms + "/" + name)) <= LIMIT);

            api.delete("/api/v1/namespaces/" + ns).assertCode(200);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(
                            () -> {
                                JsonNode conditions =
                                        api.get("/api/v1/namespaces/" + ns)
                                                .json()
                                                .at("/status/conditions");
                                boolean failed = false;
                                for (JsonNode c : conditions) {
                                    failed |=
                                            c.path("type")
                                                            .asText()
                                                            .equals(
                                                                    "NamespaceDeletionContentFailure")
                                                    && c.path("status").asText().equals("True")
                                                    && c.path("message")
                                                            .asText()
                                                            .contains(TOO_LARGE);
                                }
                                assertTrue(failed, conditions::toString);
                            });
            assertEquals(before, api.get(cms + "/" + name).json(), "not marked for deletion");
            api.get("/readyz").assertCode(200);

            api.patch(cms + "/" + name, MERGE, "{\"metadata\":{\"finalizers\":null}}")
                    .assertCode(200);
            await().atMost(Duration.ofSeconds(30))
                    .untilAsserted(() -> api.get("/api/v1/namespaces/" + ns).assertCode(404));
        }
    }

    @Nested
    class FieldManager {
        private final String tooLong = "m".repeat(129);

        @Test
        void aFieldManagerOver128BytesIsInvalidOnEveryWrite() {
            String cms = "/api/v1/namespaces/default/configmaps";
            String name = unique("fm");
            String message =
                    "CreateOptions.meta.k8s.io \"\" is invalid: fieldManager: Too long: may not be more than "
                            + "128 bytes";
            api.post(cms + "?fieldManager=" + tooLong, configMap(name, 1))
                    .assertStatus(422, "Invalid", message);
            api.create(cms, configMap(name, 1));
            String item = cms + "/" + name;
            api.put(item + "?fieldManager=" + tooLong, configMap(name, 2))
                    .assertStatus(
                            422, "Invalid", message.replace("CreateOptions", "UpdateOptions"));
            api.patch(item + "?fieldManager=" + tooLong, MERGE, "{\"data\":{\"k\":\"3\"}}")
                    .assertStatus(422, "Invalid", message.replace("CreateOptions", "PatchOptions"));
            api.patch(item + "?fieldManager=" + tooLong, APPLY, configMap(name, 4))
                    .assertStatus(422, "Invalid", message.replace("CreateOptions", "PatchOptions"));
            assertEquals("x", api.get(item).json().at("/data/k").asText());
            api.patch(item + "?fieldManager=" + "m".repeat(128), MERGE, "{\"data\":{\"k\":\"5\"}}")
                    .assertCode(200);
        }

        @Test
        void aFieldManagerWithAControlCharacterIsInvalid() {
            ObjectNode s =
                    api.post(
                                    "/api/v1/namespaces/default/configmaps?fieldManager=a%07b&dryRun=x",
                                    configMap(unique("fm"), 1))
                            .assertStatus(
                                    422,
                                    "Invalid",
                                    "CreateOptions.meta.k8s.io \"\" is "
                                            + "invalid: [fieldManager: Invalid value: \"a\\ab\": invalid character U+0007 (at position 1), "
                                            + "dryRun: Unsupported value: [\"x\"]: supported values: \"All\"]");
            assertEquals("meta.k8s.io", s.at("/details/group").asText());
            assertEquals("CreateOptions", s.at("/details/kind").asText());
            assertFalse(s.path("details").has("name"), "empty details are left out");
        }
    }

    @Nested
    class StrategicDirectives {
        @Test
        void malformedDirectivesAreRefusedAsKubernetesRefusesThem() {
            String name = unique("smp");
            String item = "/api/v1/namespaces/default/configmaps/" + name;
            api.create("/api/v1/namespaces/default/configmaps", configMap(name, 1));
            ObjectNode before = api.get(item).json();
            api.patch(item, STRATEGIC, "{\"metadata\":{\"$setElementOrder/finalizers\":\"x\"}}")
                    .assertStatus(
                            400, "BadRequest", "expected a []interface {}, but received a string");
            api.patch(item, STRATEGIC, "{\"metadata\":{\"$patch\":\"shuffle\"}}")
                    .assertStatus(
                            400,
                            "BadRequest",
                            "unknown patch type: shuffle in map: map[$patch:shuffle]");
            api.patch(item, STRATEGIC, "{\"metadata\":{\"$retainKeys\":\"name\"}}")
                    .assertStatus(400, "BadRequest", "invalid patch format of retainKeys");
            api.patch(
                            item,
                            STRATEGIC,
                            "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":\"a\"}}")
                    .assertCode(200);
            assertEquals(before, api.get(item).json());
        }
    }
}
