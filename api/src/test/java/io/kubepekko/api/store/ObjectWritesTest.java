package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.patch.JsonPatch;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The write pipeline against one in-memory collection, with a fixed clock, counting uids ({@code
 * uid-1}, {@code uid-2}…) and counting name suffixes ({@code 00001}, {@code 00002}…).
 */
class ObjectWritesTest {

    private static final Registry REGISTRY = Registry.builtin();

    /** Sub-second digits that must not survive into metav1.Time. */
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.891234Z");

    private static final String NOW_TEXT = "2026-03-04T05:06:07Z";

    private static final String CONTAINERS = "'containers':[{'name':'app','image':'nginx:1.27'}]";
    private static final String POD = "{'metadata':{'name':'p'},'spec':{" + CONTAINERS + "}}";
    private static final String DEPLOYMENT =
            "{'metadata':{'name':'web'},'spec':{'replicas':2,"
                    + "'selector':{'matchLabels':{'app':'web'}},"
                    + "'template':{'metadata':{'labels':{'app':'web'}},'spec':{"
                    + CONTAINERS
                    + "}}}}";
    private static final String CONFIGMAP = "{'metadata':{'name':'cm'},'data':{'k':'v'}}";

    private final Map<String, ObjectNode> store = new HashMap<>();
    private int uids;
    private int suffixes;
    private final ObjectWrites.Env env =
            new ObjectWrites.Env(
                    NOW, () -> "uid-" + (++uids), () -> String.format("%05d", ++suffixes));
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);

    // ---- fixture
    // ----------------------------------------------------------------------------------

    static ResourceType type(String resource) {
        return REGISTRY.all().stream()
                .filter(t -> t.resource().equals(resource))
                .findFirst()
                .orElseThrow();
    }

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    static byte[] bytes(String json) {
        return json.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    private static String namespaceOf(String resource) {
        return type(resource).namespaced() ? "default" : null;
    }

    private WriteOutcome run(String resource, WriteOp op) {
        return writes.execute(type(resource), namespaceOf(resource), store::get, op, env).orThrow();
    }

    private WriteOutcome create(String resource, String json) {
        return run(resource, new WriteOp.Create(obj(json), WriteOptions.DEFAULT));
    }

    private WriteOutcome update(String resource, String name, String json) {
        return update(resource, name, obj(json), null);
    }

    private WriteOutcome update(String resource, String name, ObjectNode body, String subresource) {
        return run(resource, new WriteOp.Update(name, body, subresource, WriteOptions.DEFAULT));
    }

    private WriteOutcome patch(
            String resource,
            String name,
            PatchType type,
            String patch,
            String subresource,
            String fieldValidation) {
        return run(
                resource,
                new WriteOp.Patch(
                        name,
                        type,
                        bytes(patch),
                        subresource,
                        new WriteOptions(false, null, FieldValidation.parse(fieldValidation))));
    }

    private WriteOutcome mergePatch(String resource, String name, String patch) {
        return patch(resource, name, PatchType.MERGE_PATCH, patch, null, "Warn");
    }

    private WriteOutcome delete(String resource, String name, Preconditions preconditions) {
        return run(resource, new WriteOp.Delete(name, preconditions, WriteOptions.DEFAULT));
    }

    /**
     * Creates through the pipeline and stores the result at resourceVersion 5, as the store would.
     */
    private ObjectNode seed(String resource, String json) {
        ObjectNode stored = create(resource, json).after();
        metaOf(stored).put("resourceVersion", "5");
        store.put(stored.path("metadata").path("name").asText(), stored);
        return stored;
    }

    /** A copy of the stored object to send back, as a client that read it would. */
    private ObjectNode read(String name) {
        return store.get(name).deepCopy();
    }

    private static ObjectNode metaOf(ObjectNode obj) {
        return ObjectMeta.of(obj);
    }

    /** {@code json} with {@code field} set to the object {@code value}, as JSON text. */
    static String with(String json, String field, String value) {
        ObjectNode o = obj(json);
        o.set(field, obj(value));
        return Json.string(o);
    }

    private static JsonNode meta(ObjectNode obj, String field) {
        return obj.path("metadata").get(field);
    }

    private static ApiStatus refused(Executable write) {
        return assertThrows(ApiException.class, write).status();
    }

    private static void assertStatus(ApiStatus status, int code, String reason, String message) {
        assertEquals(message, status.message());
        assertEquals(reason, status.reason());
        assertEquals(code, status.code());
    }

    private static void assertDetails(ApiStatus status, String name, String group, String kind) {
        assertEquals(name, status.details().name());
        assertEquals(group, status.details().group());
        assertEquals(kind, status.details().kind());
    }

    // ---- create: system fields
    // ----------------------------------------------------------------------

    static Stream<Arguments> kindsAndGeneration() {
        return Stream.of(
                Arguments.of("configmap does not track generation", "configmaps", CONFIGMAP, false),
                Arguments.of("pod starts at generation 1", "pods", POD, true),
                Arguments.of("deployment starts at generation 1", "deployments", DEPLOYMENT, true),
                Arguments.of(
                        "cluster-scoped namespace does not track generation",
                        "namespaces",
                        "{'metadata':{'name':'team-a'}}",
                        false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kindsAndGeneration")
    void createFillsSystemFieldsWhateverTheClientSent(
            String name, String resource, String json, boolean generation) {
        ObjectNode body = obj(json);
        ObjectNode m = metaOf(body);
        m.put("uid", "client-uid");
        m.put("creationTimestamp", "2000-01-01T00:00:00Z");
        m.put("generation", 7);
        m.put("deletionTimestamp", "2000-01-01T00:00:00Z");
        m.put("deletionGracePeriodSeconds", 5);
        m.put("selfLink", "/api/v1/whatever");

        WriteOutcome out = run(resource, new WriteOp.Create(body, WriteOptions.DEFAULT));

        ObjectNode after = out.after();
        assertEquals("uid-1", meta(after, "uid").asText());
        assertEquals(NOW_TEXT, meta(after, "creationTimestamp").asText());
        if (generation) {
            assertEquals(1, meta(after, "generation").asInt());
        } else {
            assertNull(meta(after, "generation"));
        }
        for (String absent :
                List.of(
                        "resourceVersion",
                        "deletionTimestamp",
                        "deletionGracePeriodSeconds",
                        "selfLink")) {
            assertNull(meta(after, absent), absent);
        }
        assertNull(out.before());
        assertEquals(WriteOutcome.Answer.CREATED, out.answer());
        assertTrue(out.changed());
        assertFalse(out.removes());
        assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
        assertEquals(List.of(), out.warnings());
        assertEquals(
                "client-uid", meta(body, "uid").asText(), "the request's object is not mutated");
    }

    @Test
    void creationTimestampIsRfc3339InUtcWithSecondPrecision() {
        assertEquals(NOW_TEXT, Timestamps.format(NOW));
        assertEquals(
                "2026-03-04T05:06:07Z", Timestamps.format(Instant.parse("2026-03-04T05:06:07Z")));
        assertEquals("1970-01-01T00:00:00Z", Timestamps.format(Instant.EPOCH));
    }

    // ---- create: names
    // ------------------------------------------------------------------------------

    @Test
    void createAppendsSuffixToGenerateName() {
        WriteOutcome out = create("configmaps", "{'metadata':{'generateName':'web-'}}");
        assertEquals("web-00001", meta(out.after(), "name").asText());
        assertEquals("web-", meta(out.after(), "generateName").asText());
    }

    @Test
    void createRetriesGeneratedNamesThatAreTaken() {
        seed("configmaps", "{'metadata':{'name':'web-00001'}}");
        seed("configmaps", "{'metadata':{'name':'web-00002'}}");
        WriteOutcome out = create("configmaps", "{'metadata':{'generateName':'web-'}}");
        assertEquals("web-00003", meta(out.after(), "name").asText());
    }

    @Test
    void createTruncatesLongGenerateNameToFiftyEightCharacters() {
        String prefix = "a".repeat(62);
        WriteOutcome out = create("configmaps", "{'metadata':{'generateName':'" + prefix + "'}}");
        assertEquals("a".repeat(58) + "00001", meta(out.after(), "name").asText());
    }

    @Test
    void createKeepsAnExplicitNameOverGenerateName() {
        WriteOutcome out = create("configmaps", "{'metadata':{'name':'cm','generateName':'web-'}}");
        assertEquals("cm", meta(out.after(), "name").asText());
        assertEquals(0, suffixes, "no suffix drawn");
    }

    // ---- create: namespace and resourceVersion
    // ------------------------------------------------------

    @Test
    void createTakesTheNamespaceOfTheRequest() {
        WriteOutcome out =
                writes.execute(
                                type("configmaps"),
                                "team-a",
                                store::get,
                                new WriteOp.Create(obj(CONFIGMAP), WriteOptions.DEFAULT),
                                env)
                        .orThrow();
        assertEquals("team-a", meta(out.after(), "namespace").asText());
    }

    @Test
    void createRefusesANamespaceOtherThanTheRequests() {
        ApiStatus s =
                refused(
                        () ->
                                create(
                                        "configmaps",
                                        "{'metadata':{'name':'cm','namespace':'other'}}"));
        assertStatus(
                s,
                400,
                "BadRequest",
                "the namespace of the provided object does not match the namespace sent on the request");
    }

    @Test
    void createDropsTheNamespaceOfAClusterScopedObject() {
        WriteOutcome out =
                create("namespaces", "{'metadata':{'name':'team-a','namespace':'default'}}");
        assertNull(meta(out.after(), "namespace"));
    }

    @Test
    void createRefusesAResourceVersion() {
        ApiStatus s =
                refused(
                        () ->
                                create(
                                        "configmaps",
                                        "{'metadata':{'name':'cm','resourceVersion':'3'}}"));
        assertStatus(
                s, 400, "BadRequest", "resourceVersion should not be set on objects to be created");
    }

    // ---- create: status and defaults
    // -----------------------------------------------------------------

    static Stream<Arguments> initialStatuses() {
        return Stream.of(
                Arguments.of(
                        "pod starts Pending whatever the client sent",
                        "pods",
                        "{'metadata':{'name':'p'},'spec':{"
                                + CONTAINERS
                                + "},'status':{'phase':'Running','podIP':'10.0.0.1'}}",
                        "{'phase':'Pending','qosClass':'BestEffort'}"),
                Arguments.of(
                        "pod qosClass counts requests defaulted from limits",
                        "pods",
                        "{'metadata':{'name':'p'},'spec':{'containers':[{'name':'app','image':'nginx:1.27',"
                                + "'resources':{'limits':{'cpu':'1','memory':'1Gi'}}}]}}",
                        "{'phase':'Pending','qosClass':'Guaranteed'}"),
                Arguments.of(
                        "pod with requests below limits is Burstable",
                        "pods",
                        "{'metadata':{'name':'p'},'spec':{'containers':[{'name':'app','image':'nginx:1.27',"
                                + "'resources':{'requests':{'cpu':'500m'},'limits':{'cpu':'1','memory':'1Gi'}}}]}}",
                        "{'phase':'Pending','qosClass':'Burstable'}"),
                Arguments.of(
                        "namespace starts Active",
                        "namespaces",
                        "{'metadata':{'name':'team-a'},'status':{'phase':'Terminating'}}",
                        "{'phase':'Active'}"),
                Arguments.of(
                        "deployment starts with an empty status",
                        "deployments",
                        with(DEPLOYMENT, "status", "{'replicas':9}"),
                        "{}"),
                Arguments.of(
                        "node keeps the status it registers with",
                        "nodes",
                        "{'metadata':{'name':'n1'},'status':{'capacity':{'pods':'110'}}}",
                        "{'capacity':{'pods':'110'}}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("initialStatuses")
    void createResetsStatusOfKindsWithAStatusSubresource(
            String name, String resource, String json, String status) {
        WriteOutcome out = create(resource, json);
        assertEquals(obj(status), out.after().get("status"));
    }

    @Test
    void createAppliesPodDefaults() {
        ObjectNode spec = (ObjectNode) create("pods", POD).after().get("spec");
        assertEquals("Always", spec.path("restartPolicy").asText());
        assertEquals("ClusterFirst", spec.path("dnsPolicy").asText());
        assertEquals("default-scheduler", spec.path("schedulerName").asText());
        assertEquals(30, spec.path("terminationGracePeriodSeconds").asInt());
        JsonNode container = spec.path("containers").path(0);
        assertEquals("IfNotPresent", container.path("imagePullPolicy").asText());
        assertEquals("/dev/termination-log", container.path("terminationMessagePath").asText());
    }

    @Test
    void createAddsTheKubernetesFinalizerEvenToANamespaceSentAsTerminating() {
        WriteOutcome out =
                create(
                        "namespaces",
                        "{'metadata':{'name':'team-a'},'status':{'phase':'Terminating'}}");
        assertEquals(obj("{'finalizers':['kubernetes']}"), out.after().get("spec"));
    }

    // ---- create: validation and uniqueness
    // ------------------------------------------------------------

    static Stream<Arguments> invalidObjects() {
        return Stream.of(
                Arguments.of(
                        "configmap without a name",
                        "configmaps",
                        "{'data':{'k':'v'}}",
                        "ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required",
                        null,
                        null,
                        "ConfigMap",
                        List.of(
                                new StatusCause(
                                        "FieldValueRequired",
                                        "Required value: name or generateName is required",
                                        "metadata.name"))),
                Arguments.of(
                        "deployment whose selector does not match its template",
                        "deployments",
                        DEPLOYMENT.replace("'labels':{'app':'web'}", "'labels':{'app':'other'}"),
                        "Deployment.apps \"web\" is invalid: spec.template.metadata.labels: Invalid value: "
                                + "{\"app\":\"other\"}: `selector` does not match template `labels`",
                        "web",
                        "apps",
                        "Deployment",
                        List.of(
                                new StatusCause(
                                        "FieldValueInvalid",
                                        "Invalid value: {\"app\":\"other\"}: "
                                                + "`selector` does not match template `labels`",
                                        "spec.template.metadata.labels"))),
                Arguments.of(
                        "several errors are listed in brackets",
                        "configmaps",
                        "{'metadata':{'name':'cm','labels':{'a':'b c'},'finalizers':['nope']}}",
                        "ConfigMap \"cm\" is invalid: [metadata.labels: Invalid value: \"b c\": a valid label must be "
                                + "an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
                                + "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                                + "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?'), "
                                + "metadata.finalizers[0]: Invalid value: \"nope\": name is neither a standard finalizer "
                                + "name nor is it fully qualified]",
                        "cm",
                        null,
                        "ConfigMap",
                        List.of(
                                new StatusCause(
                                        "FieldValueInvalid",
                                        "Invalid value: \"b c\": a valid label must be an "
                                                + "empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
                                                + "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  "
                                                + "or '12345', regex used for validation is "
                                                + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                                        "metadata.labels"),
                                new StatusCause(
                                        "FieldValueInvalid",
                                        "Invalid value: \"nope\": name is neither a "
                                                + "standard finalizer name nor is it fully qualified",
                                        "metadata.finalizers[0]"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidObjects")
    void createRefusesAnInvalidObjectWith422(
            String name,
            String resource,
            String json,
            String message,
            String detailName,
            String group,
            String kind,
            List<StatusCause> causes) {
        ApiStatus s = refused(() -> create(resource, json));
        assertStatus(s, 422, "Invalid", message);
        assertDetails(s, detailName, group, kind);
        assertEquals(causes, s.details().causes());
    }

    static Stream<Arguments> duplicates() {
        return Stream.of(
                Arguments.of(
                        "core kind",
                        "configmaps",
                        CONFIGMAP,
                        "cm",
                        "configmaps \"cm\" already exists",
                        null),
                Arguments.of(
                        "grouped kind",
                        "deployments",
                        DEPLOYMENT,
                        "web",
                        "deployments.apps \"web\" already exists",
                        "apps"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("duplicates")
    void createRefusesATakenNameWithAlreadyExists(
            String name,
            String resource,
            String json,
            String objName,
            String message,
            String group) {
        seed(resource, json);
        ApiStatus s = refused(() -> create(resource, json));
        assertStatus(s, 409, "AlreadyExists", message);
        assertDetails(s, objName, group, resource);
    }

    @Test
    void createValidatesBeforeCheckingUniqueness() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                create(
                                        "configmaps",
                                        "{'metadata':{'name':'cm','finalizers':['nope']}}"));
        assertEquals(422, s.code());
    }

    // ---- update: name, namespace, existence
    // -----------------------------------------------------------

    @Test
    void updateRefusesANameOtherThanTheUrls() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s = refused(() -> update("configmaps", "cm", "{'metadata':{'name':'other'}}"));
        assertStatus(
                s,
                400,
                "BadRequest",
                "the name of the object (other) does not match the name on the URL (cm)");
    }

    @Test
    void updateRefusesABodyWithoutTheUrlsName() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s = refused(() -> update("configmaps", "cm", "{'data':{'k':'w'}}"));
        assertStatus(
                s,
                400,
                "BadRequest",
                "the name of the object () does not match the name on the URL (cm)");
    }

    @Test
    void updateRefusesANamespaceOtherThanTheRequests() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                update(
                                        "configmaps",
                                        "cm",
                                        "{'metadata':{'name':'cm','namespace':'other'}}"));
        assertStatus(
                s,
                400,
                "BadRequest",
                "the namespace of the object (other) does not match the namespace on the request (default)");
    }

    @Test
    void updateOfAMissingObjectIsNotFound() {
        ApiStatus s = refused(() -> update("configmaps", "cm", CONFIGMAP));
        assertStatus(s, 404, "NotFound", "configmaps \"cm\" not found");
        assertDetails(s, "cm", null, "configmaps");
    }

    static Stream<Arguments> createOnUpdateKinds() {
        return Stream.of(
                Arguments.of(
                        "lease",
                        "leases",
                        "{'metadata':{'name':'l'},'spec':{'holderIdentity':'a'}}"),
                Arguments.of("endpoints", "endpoints", "{'metadata':{'name':'l'}}"),
                Arguments.of("role", "roles", "{'metadata':{'name':'l'},'rules':[]}"),
                Arguments.of(
                        "cluster role", "clusterroles", "{'metadata':{'name':'l'},'rules':[]}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("createOnUpdateKinds")
    void updateOfAMissingObjectCreatesItForKindsThatAllowIt(
            String name, String resource, String json) {
        WriteOutcome out = update(resource, "l", json);
        assertEquals(WriteOutcome.Answer.CREATED, out.answer());
        assertTrue(out.changed());
        assertNull(out.before());
        assertEquals("uid-1", meta(out.after(), "uid").asText());
        assertEquals(NOW_TEXT, meta(out.after(), "creationTimestamp").asText());
    }

    @Test
    void updateThatCreatesIgnoresTheResourceVersionItCarries() {
        WriteOutcome out =
                update("leases", "l", "{'metadata':{'name':'l','resourceVersion':'41'}}");
        assertEquals(WriteOutcome.Answer.CREATED, out.answer());
        assertNull(meta(out.after(), "resourceVersion"));
    }

    @Test
    void updateThatWouldCreateFailsItsUidPrecondition() {
        ApiStatus s =
                refused(() -> update("leases", "l", "{'metadata':{'name':'l','uid':'gone'}}"));
        assertStatus(
                s,
                409,
                "Conflict",
                "Operation cannot be fulfilled on leases.coordination.k8s.io \"l\": "
                        + "Precondition failed: UID in precondition: gone, UID in object meta: ");
    }

    @Test
    void statusUpdateOfAMissingObjectIsNotFoundEvenForKindsThatCreateOnUpdate() {
        ApiStatus s =
                refused(
                        () ->
                                update(
                                        "services",
                                        "svc",
                                        obj("{'metadata':{'name':'svc'}}"),
                                        "status"));
        assertStatus(s, 404, "NotFound", "services \"svc\" not found");
    }

    // ---- update: optimistic concurrency
    // -----------------------------------------------------------------

    @Test
    void updateWithAStaleResourceVersionConflicts() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                update(
                                        "configmaps",
                                        "cm",
                                        "{'metadata':{'name':'cm','resourceVersion':'4'}}"));
        assertStatus(
                s,
                409,
                "Conflict",
                "Operation cannot be fulfilled on configmaps \"cm\": the object has been "
                        + "modified; please apply your changes to the latest version and try again");
        assertDetails(s, "cm", null, "configmaps");
    }

    @Test
    void updateWithTheCurrentResourceVersionOrNoneSucceeds() {
        seed("configmaps", CONFIGMAP);
        assertTrue(
                update(
                                "configmaps",
                                "cm",
                                "{'metadata':{'name':'cm','resourceVersion':'5'},'data':{'k':'1'}}")
                        .changed());
        assertTrue(
                update("configmaps", "cm", "{'metadata':{'name':'cm'},'data':{'k':'2'}}")
                        .changed());
    }

    @Test
    void updateWithAnotherUidConflicts() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                update(
                                        "configmaps",
                                        "cm",
                                        "{'metadata':{'name':'cm','uid':'other'}}"));
        assertStatus(
                s,
                409,
                "Conflict",
                "Operation cannot be fulfilled on configmaps \"cm\": "
                        + "Precondition failed: UID in precondition: other, UID in object meta: uid-1");
    }

    @Test
    void updateChecksTheUidPreconditionBeforeTheResourceVersion() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                update(
                                        "configmaps",
                                        "cm",
                                        "{'metadata':{'name':'cm','uid':'other','resourceVersion':'4'}}"));
        assertEquals(
                "Operation cannot be fulfilled on configmaps \"cm\": "
                        + "Precondition failed: UID in precondition: other, UID in object meta: uid-1",
                s.message());
    }

    // ---- update: system fields, status, generation
    // ----------------------------------------------------

    @Test
    void updateCarriesSystemFieldsOverWhateverTheClientSent() {
        ObjectNode stored = seed("deployments", DEPLOYMENT);
        ObjectNode body = read("web");
        ObjectNode m = metaOf(body);
        m.put("creationTimestamp", "2000-01-01T00:00:00Z");
        m.put("generation", 99);
        m.put("deletionTimestamp", "2000-01-01T00:00:00Z");
        m.put("deletionGracePeriodSeconds", 3);
        m.put("selfLink", "/apis/apps/v1/x");
        m.remove("uid");
        m.putObject("labels").put("tier", "front");

        ObjectNode after = update("deployments", "web", body, null).after();

        for (String f : List.of("uid", "creationTimestamp", "generation", "resourceVersion")) {
            assertEquals(meta(stored, f), meta(after, f), f);
        }
        for (String f : List.of("deletionTimestamp", "deletionGracePeriodSeconds", "selfLink")) {
            assertNull(meta(after, f), f);
        }
        assertEquals("front", after.path("metadata").path("labels").path("tier").asText());
    }

    @Test
    void mainResourceUpdateKeepsTheStoredStatus() {
        seed("pods", POD).set("status", obj("{'phase':'Running'}"));
        ObjectNode body = read("p");
        body.set("status", obj("{'phase':'Failed'}"));
        metaOf(body).putObject("labels").put("app", "web");

        ObjectNode after = update("pods", "p", body, null).after();

        assertEquals(obj("{'phase':'Running'}"), after.get("status"));
        assertEquals("web", after.path("metadata").path("labels").path("app").asText());
    }

    @Test
    void statusUpdateReplacesTheStatusAndIgnoresEverythingElse() {
        ObjectNode stored = seed("pods", POD);
        ObjectNode body = read("p");
        body.set("status", obj("{'phase':'Running','podIP':'10.0.0.7'}"));
        metaOf(body).putObject("labels").put("app", "web");
        ((ObjectNode) body.path("spec").path("containers").path(0)).put("image", "nginx:1.28");

        WriteOutcome out = update("pods", "p", body, "status");

        assertEquals(obj("{'phase':'Running','podIP':'10.0.0.7'}"), out.after().get("status"));
        assertEquals(
                withoutManagedFields(stored.get("metadata")),
                withoutManagedFields(out.after().get("metadata")));
        JsonNode statusEntry = out.after().at("/metadata/managedFields").get(1);
        assertEquals(
                "status",
                statusEntry.path("subresource").asText(),
                "the status writer owns status");
        assertEquals(List.of("f:status"), fieldNames(statusEntry.path("fieldsV1")));
        assertEquals(stored.get("spec"), out.after().get("spec"));
        assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
    }

    static Stream<Arguments> generationChanges() {
        Consumer<ObjectNode> replicas = o -> ((ObjectNode) o.get("spec")).put("replicas", 3);
        Consumer<ObjectNode> label = o -> metaOf(o).putObject("labels").put("x", "y");
        Consumer<ObjectNode> status = o -> o.set("status", obj("{'replicas':2}"));
        Consumer<ObjectNode> image =
                o ->
                        ((ObjectNode) o.path("spec").path("containers").path(0))
                                .put("image", "nginx:2");
        Consumer<ObjectNode> annotation = o -> metaOf(o).putObject("annotations").put("a", "b");
        return Stream.of(
                Arguments.of(
                        "deployment replicas change bumps generation",
                        "deployments",
                        DEPLOYMENT,
                        "web",
                        replicas,
                        null,
                        2),
                Arguments.of(
                        "deployment label change keeps generation",
                        "deployments",
                        DEPLOYMENT,
                        "web",
                        label,
                        null,
                        1),
                Arguments.of(
                        "deployment status write keeps generation",
                        "deployments",
                        DEPLOYMENT,
                        "web",
                        status,
                        "status",
                        1),
                Arguments.of("pod image change bumps generation", "pods", POD, "p", image, null, 2),
                Arguments.of(
                        "pod annotation change keeps generation",
                        "pods",
                        POD,
                        "p",
                        annotation,
                        null,
                        1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("generationChanges")
    void updateBumpsGenerationOnlyWhenTheSpecChanges(
            String name,
            String resource,
            String json,
            String objName,
            Consumer<ObjectNode> change,
            String subresource,
            int generation) {
        seed(resource, json);
        ObjectNode body = read(objName);
        change.accept(body);
        WriteOutcome out = update(resource, objName, body, subresource);
        assertTrue(out.changed());
        assertEquals(generation, meta(out.after(), "generation").asInt());
    }

    @Test
    void updateOfAKindWithoutGenerationNeverSetsIt() {
        seed("configmaps", CONFIGMAP);
        WriteOutcome out =
                update("configmaps", "cm", "{'metadata':{'name':'cm'},'data':{'k':'changed'}}");
        assertNull(meta(out.after(), "generation"));
    }

    static Stream<Arguments> noOpUpdates() {
        return Stream.of(
                Arguments.of("the stored object sent back", (Consumer<ObjectNode>) b -> {}),
                Arguments.of(
                        "without system fields, status and defaulted fields",
                        (Consumer<ObjectNode>)
                                b -> {
                                    metaOf(b)
                                            .remove(
                                                    List.of(
                                                            "resourceVersion",
                                                            "uid",
                                                            "creationTimestamp",
                                                            "generation"));
                                    ObjectNode spec = (ObjectNode) b.get("spec");
                                    spec.remove(
                                            List.of("restartPolicy", "dnsPolicy", "schedulerName"));
                                    ((ObjectNode) spec.path("containers").path(0))
                                            .remove("imagePullPolicy");
                                    b.remove("status");
                                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("noOpUpdates")
    void updateThatChangesNothingIsANoOp(String name, Consumer<ObjectNode> edit) {
        ObjectNode stored = seed("pods", POD);
        ObjectNode body = read("p");
        edit.accept(body);
        WriteOutcome out = update("pods", "p", body, null);
        assertFalse(out.changed());
        assertEquals(WriteOutcome.Answer.UNCHANGED, out.answer());
        assertFalse(out.removes());
        assertSame(stored, out.before());
        assertSame(stored, out.after());
    }

    // ---- patch
    // -----------------------------------------------------------------------------------------

    @Test
    void mergePatchMergesIntoTheStoredObject() {
        ObjectNode stored = seed("configmaps", CONFIGMAP);
        WriteOutcome out =
                mergePatch(
                        "configmaps", "cm", "{'data':{'k2':'v2'},'metadata':{'labels':{'a':'b'}}}");
        assertEquals(obj("{'k':'v','k2':'v2'}"), out.after().get("data"));
        assertEquals(obj("{'a':'b'}"), out.after().path("metadata").get("labels"));
        assertTrue(out.changed());
        assertSame(stored, out.before());
        assertFalse(stored.path("metadata").has("labels"), "the stored object is not mutated");
    }

    @Test
    void jsonPatchAppliesItsOperations() {
        seed("configmaps", CONFIGMAP);
        WriteOutcome out =
                patch(
                        "configmaps",
                        "cm",
                        PatchType.JSON_PATCH,
                        "[{'op':'add','path':'/data/k2','value':'v2'},{'op':'remove','path':'/data/k'}]",
                        null,
                        "Warn");
        assertEquals(obj("{'k2':'v2'}"), out.after().get("data"));
    }

    @Test
    void patchOfAMissingObjectIsNotFoundEvenForKindsThatCreateOnUpdate() {
        ApiStatus s = refused(() -> mergePatch("leases", "l", "{'spec':{'holderIdentity':'a'}}"));
        assertStatus(s, 404, "NotFound", "leases.coordination.k8s.io \"l\" not found");
    }

    static Stream<Arguments> unknownFieldModes() {
        return Stream.of(
                Arguments.of("Warn", List.of("unknown field \"spec.replica\"")),
                Arguments.of("Ignore", List.of()),
                Arguments.of("", List.of("unknown field \"spec.replica\"")));
    }

    @ParameterizedTest(name = "fieldValidation={0}")
    @MethodSource("unknownFieldModes")
    void patchResultIsPrunedOfUnknownFields(String fieldValidation, List<String> warnings) {
        seed("deployments", DEPLOYMENT);
        WriteOutcome out =
                patch(
                        "deployments",
                        "web",
                        PatchType.MERGE_PATCH,
                        "{'spec':{'replica':3,'replicas':4}}",
                        null,
                        fieldValidation);
        assertFalse(out.after().path("spec").has("replica"));
        assertEquals(4, out.after().path("spec").path("replicas").asInt());
        assertEquals(warnings, out.warnings());
    }

    @Test
    void patchWithOnlyUnknownFieldsIsANoOpThatStillWarns() {
        seed("deployments", DEPLOYMENT);
        WriteOutcome out = mergePatch("deployments", "web", "{'spec':{'replica':3}}");
        assertFalse(out.changed());
        assertEquals(List.of("unknown field \"spec.replica\""), out.warnings());
    }

    @Test
    void patchWithUnknownFieldsIsRefusedUnderStrict() {
        seed("deployments", DEPLOYMENT);
        ApiStatus s =
                refused(
                        () ->
                                patch(
                                        "deployments",
                                        "web",
                                        PatchType.MERGE_PATCH,
                                        "{'spec':{'replica':3}}",
                                        null,
                                        "Strict"));
        assertStatus(
                s,
                400,
                "BadRequest",
                "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: "
                        + "unknown field \"spec.replica\"");
    }

    @Test
    void patchThatChangesTheNameIsRefused() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(() -> mergePatch("configmaps", "cm", "{'metadata':{'name':'other'}}"));
        assertStatus(
                s,
                400,
                "BadRequest",
                "the name of the object (other) does not match the name on the URL (cm)");
    }

    @Test
    void patchCarryingAStaleResourceVersionConflicts() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                patch(
                                        "configmaps",
                                        "cm",
                                        PatchType.JSON_PATCH,
                                        "[{'op':'replace','path':'/metadata/resourceVersion','value':'4'}]",
                                        null,
                                        "Warn"));
        assertStatus(
                s,
                409,
                "Conflict",
                "Operation cannot be fulfilled on configmaps \"cm\": the object has been "
                        + "modified; please apply your changes to the latest version and try again");
    }

    @Test
    void patchCarryingTheCurrentResourceVersionApplies() {
        seed("configmaps", CONFIGMAP);
        WriteOutcome out =
                mergePatch(
                        "configmaps",
                        "cm",
                        "{'metadata':{'resourceVersion':'5'},'data':{'k':'w'}}");
        assertEquals("w", out.after().path("data").path("k").asText());
    }

    @Test
    void jsonPatchWhoseTestFailsIsInvalid() {
        seed("configmaps", CONFIGMAP);
        ApiStatus s =
                refused(
                        () ->
                                patch(
                                        "configmaps",
                                        "cm",
                                        PatchType.JSON_PATCH,
                                        "[{'op':'test','path':'/data/k','value':'other'},{'op':'add','path':'/data/x','value':'y'}]",
                                        null,
                                        "Warn"));
        assertStatus(s, 422, "Invalid", JsonPatch.APPLY_FAILED);
    }

    @Test
    void statusPatchChangesOnlyTheStatus() {
        ObjectNode stored = seed("pods", POD);
        WriteOutcome out =
                patch(
                        "pods",
                        "p",
                        PatchType.MERGE_PATCH,
                        "{'status':{'phase':'Running'},'metadata':{'labels':{'a':'b'}}}",
                        "status",
                        "Warn");
        assertEquals("Running", out.after().path("status").path("phase").asText());
        assertEquals("BestEffort", out.after().path("status").path("qosClass").asText());
        assertEquals(
                withoutManagedFields(stored.get("metadata")),
                withoutManagedFields(out.after().get("metadata")));
        JsonNode statusEntry = out.after().at("/metadata/managedFields").get(1);
        assertEquals(
                "status",
                statusEntry.path("subresource").asText(),
                "the status writer owns status");
        assertEquals(List.of("f:status"), fieldNames(statusEntry.path("fieldsV1")));
    }

    // ---- scale subresource
    // -----------------------------------------------------------------------------

    @Test
    void scalePatchWritesReplicasAndAnswersWithTheScale() {
        seed("deployments", DEPLOYMENT);
        WriteOutcome out =
                patch(
                        "deployments",
                        "web",
                        PatchType.MERGE_PATCH,
                        "{'spec':{'replicas':5}}",
                        "scale",
                        "");
        assertEquals(WriteOutcome.ResponseView.SCALE, out.view());
        assertEquals(5, out.after().path("spec").path("replicas").asInt());
        assertEquals(2, meta(out.after(), "generation").asInt());
        ObjectNode scale = Responses.render(type("deployments"), out);
        assertEquals("Scale", scale.path("kind").asText());
        assertEquals(5, scale.path("spec").path("replicas").asInt());
        assertEquals("app=web", scale.path("status").path("selector").asText());
    }

    @Test
    void scaleUpdateWritesReplicasAndAnswersWithTheScale() {
        seed("deployments", DEPLOYMENT);
        ObjectNode scale = ScaleConversion.toScale(type("deployments"), read("web"));
        ((ObjectNode) scale.get("spec")).put("replicas", 0);
        WriteOutcome out = update("deployments", "web", scale, "scale");
        assertEquals(WriteOutcome.ResponseView.SCALE, out.view());
        assertEquals(0, out.after().path("spec").path("replicas").asInt());
    }

    @Test
    void scaleUpdateWithAStaleResourceVersionConflicts() {
        seed("deployments", DEPLOYMENT);
        ObjectNode scale = ScaleConversion.toScale(type("deployments"), read("web"));
        metaOf(scale).put("resourceVersion", "4");
        ApiStatus s = refused(() -> update("deployments", "web", scale, "scale"));
        assertStatus(
                s,
                409,
                "Conflict",
                "Operation cannot be fulfilled on deployments.apps \"web\": the object has "
                        + "been modified; please apply your changes to the latest version and try again");
    }

    @Test
    void scalePatchToNegativeReplicasIsInvalid() {
        seed("deployments", DEPLOYMENT);
        ApiStatus s =
                refused(
                        () ->
                                patch(
                                        "deployments",
                                        "web",
                                        PatchType.MERGE_PATCH,
                                        "{'spec':{'replicas':-1}}",
                                        "scale",
                                        ""));
        assertStatus(
                s,
                422,
                "Invalid",
                "Scale.autoscaling \"web\" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0");
        assertDetails(s, "web", "autoscaling", "Scale");
    }

    // ---- delete and finalizers
    // --------------------------------------------------------------------------

    @Test
    void deleteOfAMissingObjectIsNotFound() {
        ApiStatus s = refused(() -> delete("configmaps", "cm", null));
        assertStatus(s, 404, "NotFound", "configmaps \"cm\" not found");
    }

    @Test
    void deleteWithoutFinalizersRemovesTheObject() {
        ObjectNode stored = seed("configmaps", CONFIGMAP);
        WriteOutcome out = delete("configmaps", "cm", Preconditions.NONE);
        assertTrue(out.removes());
        assertTrue(out.changed());
        assertEquals(WriteOutcome.ResponseView.DELETED, out.view());
        assertSame(stored, out.before());
        assertEquals(stored, out.after());
    }

    /** {@code rest.BeforeDelete}'s wording, which names the kind rather than the resource. */
    static Stream<Arguments> failedPreconditions() {
        return Stream.of(
                Arguments.of(
                        "uid",
                        new Preconditions("other", null),
                        "the UID in the precondition (other) does not match the UID in record (uid-1). "
                                + "The object might have been deleted and then recreated"),
                Arguments.of(
                        "resourceVersion",
                        new Preconditions(null, "4"),
                        "the ResourceVersion in the precondition (4) does not match the ResourceVersion in record (5). "
                                + "The object might have been modified"),
                Arguments.of(
                        "uid before resourceVersion",
                        new Preconditions("other", "4"),
                        "the UID in the precondition (other) does not match the UID in record (uid-1). "
                                + "The object might have been deleted and then recreated"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failedPreconditions")
    void deleteWithAFailedPreconditionConflicts(
            String name, Preconditions preconditions, String why) {
        seed("configmaps", CONFIGMAP);
        ApiStatus s = refused(() -> delete("configmaps", "cm", preconditions));
        assertStatus(
                s, 409, "Conflict", "Operation cannot be fulfilled on ConfigMap \"cm\": " + why);
        assertDetails(s, "cm", null, "ConfigMap");
    }

    @Test
    void deleteWithMatchingPreconditionsRemovesTheObject() {
        seed("configmaps", CONFIGMAP);
        assertTrue(delete("configmaps", "cm", new Preconditions("uid-1", "5")).removes());
    }

    static Stream<Arguments> finalizedKinds() {
        return Stream.of(
                Arguments.of(
                        "configmap",
                        "configmaps",
                        "{'metadata':{'name':'x','finalizers':['example.com/a']}}",
                        null),
                Arguments.of(
                        "deployment bumps generation",
                        "deployments",
                        DEPLOYMENT.replace(
                                "'name':'web'", "'name':'x','finalizers':['example.com/a']"),
                        2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("finalizedKinds")
    void deleteOfAnObjectWithFinalizersMarksItTerminating(
            String name, String resource, String json, Integer generation) {
        ObjectNode stored = seed(resource, json);
        WriteOutcome out = delete(resource, "x", null);
        assertFalse(out.removes());
        assertTrue(out.changed());
        assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
        assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
        assertEquals(0, meta(out.after(), "deletionGracePeriodSeconds").asInt());
        assertEquals(stored.path("metadata").get("finalizers"), meta(out.after(), "finalizers"));
        if (generation == null) {
            assertNull(meta(out.after(), "generation"));
        } else {
            assertEquals(generation, meta(out.after(), "generation").asInt());
        }
        assertNull(meta(stored, "deletionTimestamp"), "the stored object is not mutated");
    }

    /** Stores the terminating state a first delete produces. */
    private ObjectNode terminating(String finalizers) {
        seed(
                "configmaps",
                "{'metadata':{'name':'cm','finalizers':" + finalizers + "},'data':{'k':'v'}}");
        ObjectNode marked = delete("configmaps", "cm", null).after();
        metaOf(marked).put("resourceVersion", "6");
        store.put("cm", marked);
        return marked;
    }

    @Test
    void repeatedDeleteOfATerminatingObjectChangesNothing() {
        ObjectNode marked = terminating("['example.com/a']");
        WriteOutcome out = delete("configmaps", "cm", null);
        assertFalse(out.changed());
        assertFalse(out.removes());
        assertSame(marked, out.after());
    }

    @Test
    void updateRemovingTheLastFinalizerRemovesTheObject() {
        terminating("['example.com/a']");
        ObjectNode body = read("cm");
        metaOf(body).remove("finalizers");
        WriteOutcome out = update("configmaps", "cm", body, null);
        assertTrue(out.removes());
        assertEquals(WriteOutcome.ResponseView.OBJECT, out.view());
        assertFalse(out.after().path("metadata").has("finalizers"));
    }

    @Test
    void patchRemovingOneOfTwoFinalizersKeepsTheObjectTerminating() {
        terminating("['example.com/a','example.com/b']");
        WriteOutcome out =
                mergePatch("configmaps", "cm", "{'metadata':{'finalizers':['example.com/b']}}");
        assertFalse(out.removes());
        assertTrue(out.changed());
        assertEquals(NOW_TEXT, meta(out.after(), "deletionTimestamp").asText());
    }

    @Test
    void patchRemovingTheLastFinalizerRemovesTheObject() {
        terminating("['example.com/a']");
        assertTrue(mergePatch("configmaps", "cm", "{'metadata':{'finalizers':null}}").removes());
    }

    @Test
    void updateAddingAFinalizerToATerminatingObjectIsForbidden() {
        terminating("['example.com/a']");
        ApiStatus s =
                refused(
                        () ->
                                mergePatch(
                                        "configmaps",
                                        "cm",
                                        "{'metadata':{'finalizers':['example.com/a','example.com/b']}}"));
        assertStatus(
                s,
                422,
                "Invalid",
                "ConfigMap \"cm\" is invalid: metadata.finalizers: Forbidden: no new "
                        + "finalizers can be added if the object is being deleted, found new finalizers []string{\"example.com/b\"}");
    }

    // ---- responses
    // --------------------------------------------------------------------------------------

    @Test
    void renderOfAnObjectViewIsTheObject() {
        WriteOutcome out = create("configmaps", CONFIGMAP);
        assertSame(out.after(), Responses.render(type("configmaps"), out));
    }

    @Test
    void renderOfAScaleViewIsTheScaleOfTheObject() {
        seed("deployments", DEPLOYMENT);
        WriteOutcome out =
                patch(
                        "deployments",
                        "web",
                        PatchType.MERGE_PATCH,
                        "{'spec':{'replicas':3}}",
                        "scale",
                        "");
        metaOf(out.after()).put("resourceVersion", "6");
        assertEquals(
                obj(
                        "{'kind':'Scale','apiVersion':'autoscaling/v1','metadata':{'name':'web','namespace':'default',"
                                + "'uid':'uid-1','resourceVersion':'6','creationTimestamp':'"
                                + NOW_TEXT
                                + "'},"
                                + "'spec':{'replicas':3},'status':{'replicas':0,'selector':'app=web'}}"),
                Responses.render(type("deployments"), out));
    }

    static Stream<Arguments> deletedStatuses() {
        return Stream.of(
                Arguments.of(
                        "core kind",
                        "configmaps",
                        CONFIGMAP,
                        "cm",
                        "{'kind':'Status','apiVersion':'v1','metadata':{},'status':'Success',"
                                + "'details':{'name':'cm','kind':'configmaps','uid':'uid-1'},'code':200}"),
                Arguments.of(
                        "grouped kind",
                        "deployments",
                        DEPLOYMENT,
                        "web",
                        "{'kind':'Status','apiVersion':'v1','metadata':{},'status':'Success',"
                                + "'details':{'name':'web','group':'apps','kind':'deployments','uid':'uid-1'},'code':200}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deletedStatuses")
    void renderOfADeletedViewIsASuccessStatus(
            String name, String resource, String json, String objName, String status) {
        seed(resource, json);
        WriteOutcome out = delete(resource, objName, null);
        assertEquals(obj(status), Responses.render(type(resource), out));
    }

    // ---- selection
    // ----------------------------------------------------------------------------------------

    static Stream<Arguments> selections() {
        ObjectNode pod =
                obj(
                        "{'metadata':{'name':'p','namespace':'default','labels':{'app':'web'}},"
                                + "'spec':{'nodeName':'n1'},'status':{'phase':'Running'}}");
        return Stream.of(
                Arguments.of("no selectors select everything", pod, null, null, true),
                Arguments.of("matching label", pod, "app=web", "", true),
                Arguments.of("other label", pod, "app=db", "", false),
                Arguments.of("matching field", pod, "", "spec.nodeName=n1", true),
                Arguments.of("both must match", pod, "app=web", "status.phase=Pending", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selections")
    void filterSelectsByLabelsAndFieldsTogether(
            String name, ObjectNode object, String labels, String fields, boolean selected) {
        assertEquals(selected, ObjectFilter.of(type("pods"), labels, fields).test(object));
    }

    @Test
    void filterRefusesAFieldTheKindDoesNotSupport() {
        ApiStatus s = refused(() -> ObjectFilter.of(type("pods"), "", "spec.bogus=1"));
        assertStatus(s, 400, "BadRequest", "field label not supported: spec.bogus");
    }

    @Test
    void patchAddingOnlyAnEmptyAnnotationsMapChangesNothing() {
        // kubectl diff's client-side patch of an object made by server-side apply:
        // {"metadata":{"annotations":{}}}.
        ObjectNode before = seed("deployments", DEPLOYMENT);
        WriteOutcome out =
                patch(
                        "deployments",
                        "web",
                        PatchType.STRATEGIC_MERGE_PATCH,
                        "{'metadata':{'annotations':{},'resourceVersion':'5'}}",
                        null,
                        "Strict");
        assertFalse(out.changed(), out.after().toString());
        assertEquals(before, out.after());
        assertEquals(1, out.after().at("/metadata/generation").asInt());
    }

    private static JsonNode withoutManagedFields(JsonNode metadata) {
        ObjectNode copy = metadata.deepCopy();
        copy.remove("managedFields");
        return copy;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
