package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.audit.AuditPolicy;
import io.kubepekko.api.audit.AuditPolicyReader;
import io.kubepekko.api.definition.RemovedVersions;
import io.kubepekko.api.definition.RuntimeConfig;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.http.audit.AuditLogFormat;
import io.kubepekko.http.audit.AuditMode;
import io.kubepekko.http.audit.AuditSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One server started with {@code --runtime-config=networking.k8s.io/v1beta1=true,batch/v1=false,
 * /v1/events=false}: the off-by-default, deprecated networking.k8s.io/v1beta1 is served beside v1
 * over the same objects with kube's deprecation warning, audit annotations and gauge; batch/v1 and
 * core events are gone from discovery and OpenAPI and answer 404 on every path, while the events
 * they store stay readable through events.k8s.io/v1; kube 1.35's removed versions are nowhere.
 */
class RuntimeConfigIT {

    private static final String RUNTIME_CONFIG =
            "networking.k8s.io/v1beta1=true,batch/v1=false,/v1/events=false";
    private static final String NOT_FOUND = "the server could not find the requested resource";
    private static final String WARNING =
            "299 - \"networking.k8s.io/v1beta1 IPAddress is deprecated in v1.34+, unavailable in"
                    + " v1.37+\"";
    private static final String BETA = "/apis/networking.k8s.io/v1beta1/ipaddresses";
    private static final String GA = "/apis/networking.k8s.io/v1/ipaddresses";
    private static final String AGGREGATED =
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";

    private static final Path LOG = logFile();

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s ->
                            s.withRuntimeConfig(RuntimeConfig.parse(RUNTIME_CONFIG))
                                    .withAudit(
                                            new AuditSettings(
                                                    Optional.of(metadataPolicy()),
                                                    LOG.toString(),
                                                    0,
                                                    0,
                                                    0,
                                                    AuditLogFormat.JSON,
                                                    AuditMode.BLOCKING,
                                                    AuditSettings.DEFAULT_BUFFER_SIZE)));

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path logFile() {
        try {
            Path dir = Files.createTempDirectory("kubepekko-runtime-config-");
            dir.toFile().deleteOnExit();
            return dir.resolve("audit.log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static AuditPolicy metadataPolicy() {
        AuditPolicyReader.Result read =
                AuditPolicyReader.read(
                        "apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n"
                                .getBytes(StandardCharsets.UTF_8));
        return ((AuditPolicyReader.Result.Loaded) read).policy();
    }

    private static String address(String apiVersion, String ip, String service) {
        return json(
                "{'apiVersion':'"
                        + apiVersion
                        + "','kind':'IPAddress','metadata':{'name':'"
                        + ip
                        + "'},'spec':{'parentRef':{'resource':'services','namespace':'default',"
                        + "'name':'"
                        + service
                        + "'}}}");
    }

    private static List<String> warnings(Response r) {
        return r.headers().allValues("Warning");
    }

    private static JsonNode group(JsonNode groupList, String name) {
        for (JsonNode g : groupList.path("groups")) {
            if (g.path("name").asText().equals(name)) {
                return g;
            }
        }
        return null;
    }

    private static List<String> versions(JsonNode group) {
        List<String> out = new ArrayList<>();
        group.path("versions").forEach(v -> out.add(v.path("version").asText()));
        return out;
    }

    @Test
    void discoveryListsTheTurnedOnBetaAfterV1AndNeitherBatchNorCoreEvents() {
        ObjectNode groups = api.get("/apis").assertCode(200).json();
        JsonNode networking = group(groups, "networking.k8s.io");
        assertEquals(List.of("v1", "v1beta1"), versions(networking));
        assertEquals("v1", networking.at("/preferredVersion/version").asText());
        assertEquals(null, group(groups, "batch"));
        ObjectNode beta = api.get("/apis/networking.k8s.io/v1beta1").assertCode(200).json();
        assertEquals("ipaddresses", beta.at("/resources/0/name").asText());
        assertEquals(1, beta.path("resources").size());
        api.get("/apis/batch/v1").assertStatus(404, "NotFound", NOT_FOUND);
        api.get("/apis/batch").assertCode(404);
        ObjectNode core = api.get("/api/v1").assertCode(200).json();
        core.path("resources")
                .forEach(
                        r ->
                                assertFalse(
                                        r.path("name").asText().startsWith("events"),
                                        r.toString()));

        ObjectNode aggregated = api.get("/apis", AGGREGATED).assertCode(200).json();
        List<String> names = new ArrayList<>();
        for (JsonNode g : aggregated.path("items")) {
            names.add(g.at("/metadata/name").asText());
            if (g.at("/metadata/name").asText().equals("networking.k8s.io")) {
                List<String> vs = new ArrayList<>();
                g.path("versions").forEach(v -> vs.add(v.path("version").asText()));
                assertEquals(List.of("v1", "v1beta1"), vs);
            }
        }
        assertTrue(names.contains("networking.k8s.io"), names.toString());
        assertFalse(names.contains("batch"), names.toString());
    }

    @Test
    void openApiListsTheTurnedOnBetaAndNotTheTurnedOffGroup() {
        ObjectNode root = api.get("/openapi/v3").assertCode(200).json();
        JsonNode paths = root.path("paths");
        assertTrue(paths.has("apis/networking.k8s.io/v1beta1"), paths.toString());
        assertTrue(paths.has("apis/networking.k8s.io/v1"), paths.toString());
        assertFalse(paths.has("apis/batch/v1"), paths.toString());
        api.get("/openapi/v3/apis/batch/v1").assertCode(404);
        ObjectNode beta =
                api.get("/openapi/v3/apis/networking.k8s.io/v1beta1").assertCode(200).json();
        assertTrue(
                beta.path("paths").has("/apis/networking.k8s.io/v1beta1/ipaddresses"),
                beta.path("paths").toString());
        ObjectNode core = api.get("/openapi/v3/api/v1").assertCode(200).json();
        assertFalse(core.path("paths").has("/api/v1/namespaces/{namespace}/events"));
        api.get("/openapi/v2").assertCode(404);
    }

    @Test
    void turnedOffVersionsAndResourcesAnswer404OnEveryPath() {
        for (String path :
                List.of(
                        "/apis/batch/v1/jobs",
                        "/apis/batch/v1/jobs?watch=true",
                        "/apis/batch/v1/namespaces/default/jobs",
                        "/apis/batch/v1/namespaces/default/cronjobs/nightly",
                        "/apis/batch/v1/namespaces/default/jobs/one/status",
                        "/api/v1/namespaces/default/events",
                        "/api/v1/events")) {
            api.get(path).assertStatus(404, "NotFound", NOT_FOUND);
        }
        api.post(
                        "/apis/batch/v1/namespaces/default/jobs",
                        json("{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'j'}}"))
                .assertStatus(404, "NotFound", NOT_FOUND);
        api.delete("/apis/batch/v1/namespaces/default/jobs/j")
                .assertStatus(404, "NotFound", NOT_FOUND);
    }

    @Test
    void kube135sRemovedVersionsAnswer404AndAreNotDiscovered() {
        ObjectNode groups = api.get("/apis").assertCode(200).json();
        for (RemovedVersions.RemovedVersion removed : RemovedVersions.KUBE_1_35) {
            GroupVersionKind k = removed.kind();
            api.get(removed.collectionPath("default")).assertStatus(404, "NotFound", NOT_FOUND);
            Response list = api.get(k.pathPrefix());
            if (list.code() == 200) {
                // networking.k8s.io/v1beta1 is served here, for IPAddresses only
                list.json()
                        .path("resources")
                        .forEach(
                                r ->
                                        assertFalse(
                                                r.path("name")
                                                        .asText()
                                                        .startsWith(removed.resource()),
                                                k.toString()));
            } else {
                list.assertCode(404);
                JsonNode g = group(groups, k.group());
                assertTrue(g == null || !versions(g).contains(k.version()), k.toString());
            }
        }
    }

    @Test
    void anIpAddressWrittenThroughEitherVersionIsReadThroughTheOtherWithTheWarningOnV1beta1Only() {
        Response created = api.post(BETA, address("networking.k8s.io/v1beta1", "10.9.0.1", "a"));
        created.assertCode(201);
        assertEquals(List.of(WARNING), warnings(created));
        assertEquals("networking.k8s.io/v1beta1", created.json().path("apiVersion").asText());

        Response asV1 = api.get(GA + "/10.9.0.1").assertCode(200);
        assertEquals(List.of(), warnings(asV1));
        assertEquals("networking.k8s.io/v1", asV1.json().path("apiVersion").asText());
        assertEquals(created.json().at("/metadata/uid"), asV1.json().at("/metadata/uid"));
        assertEquals("a", asV1.json().at("/spec/parentRef/name").asText());

        api.post(GA, address("networking.k8s.io/v1", "10.9.0.2", "b")).assertCode(201);
        Response listed = api.get(BETA).assertCode(200);
        assertEquals(List.of(WARNING), warnings(listed));
        ObjectNode list = listed.json();
        assertEquals("IPAddressList", list.path("kind").asText());
        assertEquals("networking.k8s.io/v1beta1", list.path("apiVersion").asText());
        List<String> names = TestApiServer.itemNames(list);
        assertTrue(names.containsAll(List.of("10.9.0.1", "10.9.0.2")), names.toString());
        for (JsonNode item : list.path("items")) {
            assertEquals("networking.k8s.io/v1beta1", item.path("apiVersion").asText());
        }

        // kube's route warns before it serves: a refusal carries the warning too
        Response absent = api.get(BETA + "/10.9.9.9");
        absent.assertStatus(
                404, "NotFound", "ipaddresses.networking.k8s.io \"10.9.9.9\" not found");
        assertEquals(List.of(WARNING), warnings(absent));
        api.post(BETA, address("networking.k8s.io/v1beta1", "10.09.0.1", "c"))
                .assertStatusMessageStartsWith(
                        422, "Invalid", "IPAddress.networking.k8s.io \"10.09.0.1\" is invalid");
    }

    @Test
    void aBodyOfTheOtherVersionIsRefusedAsKubeRefusesIt() {
        api.post(GA, address("networking.k8s.io/v1beta1", "10.9.1.1", "a"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "the API version in the data (networking.k8s.io/v1beta1) does not match the"
                                + " expected API version (networking.k8s.io/v1)");
        api.post(
                        "/apis/batch/v1/namespaces/default/jobs",
                        json("{'apiVersion':'batch/v1','kind':'Job','metadata':{'name':'j'}}"))
                .assertCode(404);
        // a turned-off version is still in kube's scheme: its body decodes, then is refused
        api.post(
                        "/apis/events.k8s.io/v1/namespaces/default/events",
                        json(
                                "{'apiVersion':'v1','kind':'Event','metadata':{'name':'off'},"
                                        + "'involvedObject':{'kind':'Pod','namespace':'default',"
                                        + "'name':'p'},'reason':'R','message':'m','type':'Normal'}"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "the API version in the data (v1) does not match the expected API version"
                                + " (events.k8s.io/v1)");
    }

    /**
     * A JSON or merge patch whose result names the other served version of the kind: kube decodes
     * it from that version (the same IPAddress fields) and converts it to the URL's, so the write
     * succeeds and answers in the URL's version; another kind of that version is refused with 422.
     */
    @Test
    void aPatchToTheOtherServedVersionIsDecodedFromItAndAnotherKindRefused() {
        api.post(GA, address("networking.k8s.io/v1", "10.9.2.1", "a")).assertCode(201);
        ObjectNode patched =
                api.patch(
                                GA + "/10.9.2.1",
                                "application/merge-patch+json",
                                json(
                                        "{'apiVersion':'networking.k8s.io/v1beta1',"
                                                + "'metadata':{'labels':{'via':'beta'}}}"))
                        .assertCode(200)
                        .json();
        assertEquals("networking.k8s.io/v1", patched.path("apiVersion").asText());
        assertEquals("beta", patched.at("/metadata/labels/via").asText());
        assertEquals("a", patched.at("/spec/parentRef/name").asText());
        ObjectNode refused =
                api.patch(
                                BETA + "/10.9.2.1",
                                "application/json-patch+json",
                                "[{\"op\":\"replace\",\"path\":\"/kind\",\"value\":\"IPAddressList\"}]")
                        .assertStatusMessageStartsWith(
                                422, "Invalid", " \"\" is invalid: patch: Invalid value: \"{");
        assertTrue(
                refused.path("message")
                        .asText()
                        .endsWith(
                                "converting (v1beta1.IPAddressList) to (networking.IPAddress):"
                                        + " unknown conversion"),
                refused.toString());
        api.call("PATCH", GA + "/10.9.2.1?fieldManager=applier")
                .body(
                        "application/apply-patch+yaml",
                        address("networking.k8s.io/v1beta1", "10.9.2.1", "a"))
                .send()
                .assertStatus(
                        400,
                        "BadRequest",
                        "invalid object type: networking.k8s.io/v1beta1, Kind=IPAddress");
    }

    @Test
    void eventsStoredAsTurnedOffCoreEventsAreServedThroughEventsV1() {
        String path = "/apis/events.k8s.io/v1/namespaces/default/events";
        api.create(
                path,
                json(
                        "{'apiVersion':'events.k8s.io/v1','kind':'Event','metadata':{'name':'rc-1'},"
                                + "'eventTime':'2026-03-04T05:06:07.000000Z',"
                                + "'reportingController':'example.com/c','reportingInstance':'c-1',"
                                + "'action':'Act','reason':'Why','type':'Normal',"
                                + "'regarding':{'kind':'Pod','namespace':'default','name':'p'}}"));
        assertEquals("Why", api.get(path + "/rc-1").assertCode(200).json().path("reason").asText());
        api.get("/api/v1/namespaces/default/events/rc-1").assertStatus(404, "NotFound", NOT_FOUND);
    }

    @Test
    void requestsToTheDeprecatedVersionAreAuditedAndCounted() throws Exception {
        Response beta = api.get(BETA).assertCode(200);
        JsonNode betaEvent = completed(beta);
        assertEquals("true", betaEvent.at("/annotations/k8s.io~1deprecated").asText());
        assertEquals("1.37", betaEvent.at("/annotations/k8s.io~1removed-release").asText());

        JsonNode gaEvent = completed(api.get(GA).assertCode(200));
        assertTrue(
                gaEvent.at("/annotations/k8s.io~1deprecated").isMissingNode(), gaEvent.toString());

        assertTrue(
                api.server()
                        .deprecatedApis()
                        .series()
                        .contains(
                                new DeprecatedApiRequests.Series(
                                        "networking.k8s.io", "v1beta1", "ipaddresses", "", "1.37")),
                api.server().deprecatedApis().series().toString());
        assertTrue(
                api.server().deprecatedApis().series().stream()
                        .noneMatch(s -> s.version().equals("v1")));
    }

    private static JsonNode completed(Response response) {
        String id = response.header("Audit-Id").orElseThrow();
        return Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(
                        () -> {
                            for (JsonNode e : events()) {
                                if (e.path("auditID").asText().equals(id)
                                        && e.path("stage").asText().equals("ResponseComplete")) {
                                    return Optional.of(e);
                                }
                            }
                            return Optional.<JsonNode>empty();
                        },
                        Optional::isPresent)
                .orElseThrow();
    }

    private static List<JsonNode> events() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.exists(LOG)) {
            return out;
        }
        for (String line : Files.readAllLines(LOG)) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }
}
