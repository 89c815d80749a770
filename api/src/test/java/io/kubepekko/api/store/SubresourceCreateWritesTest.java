package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A create through {@code pods/{name}/binding} (and one forwarded by {@code bindings}) in the write
 * pipeline: kube-apiserver's checks in its order, then the pod written as storage would write it.
 */
class SubresourceCreateWritesTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final ResourceType PODS = REGISTRY.find("", "v1", "pods").orElseThrow();
    private static final Instant NOW = Instant.parse("2026-03-04T05:06:07.891Z");

    private final Map<String, ObjectNode> store = new HashMap<>();
    private final ObjectWrites writes = new ObjectWrites(ObjectWrites.SCHEMA_PRUNER);
    private final ObjectWrites.Env env = new ObjectWrites.Env(NOW, () -> "uid-1", () -> "00001");

    private static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    @BeforeEach
    void storeAPod() {
        WriteOutcome created =
                writes.execute(
                                PODS,
                                "default",
                                store::get,
                                new WriteOp.Create(
                                        obj(
                                                "{'metadata':{'name':'web'},'spec':{'containers':[{'name':'c','image':'nginx'}]}}"),
                                        new WriteOptions(false, "kubectl", FieldValidation.STRICT)),
                                env)
                        .orThrow();
        ObjectNode pod = created.after();
        ObjectMeta.of(pod).put("resourceVersion", "5");
        store.put("web", pod);
    }

    private WriteOutcome bind(String urlName, String body) {
        return writes.execute(
                        PODS,
                        "default",
                        store::get,
                        new WriteOp.CreateSubresource(
                                urlName, "binding", obj(body), null, WriteOptions.DEFAULT),
                        env)
                .orThrow();
    }

    private WriteOutcome forward(String body) {
        ObjectNode b = obj(body);
        String name = ObjectMeta.name(b);
        return writes.execute(
                        PODS,
                        "default",
                        store::get,
                        new WriteOp.CreateSubresource(
                                name == null ? "" : name,
                                "binding",
                                b,
                                "bindings",
                                WriteOptions.DEFAULT),
                        env)
                .orThrow();
    }

    private static ApiStatus refused(Executable write) {
        return assertThrows(ApiException.class, write).status();
    }

    @Test
    void aBindingWritesThePodAndAnswersASuccessStatus() {
        ObjectNode before = store.get("web");
        WriteOutcome out =
                bind(
                        "web",
                        "{'apiVersion':'v1','kind':'Binding','metadata':{'name':'web'},"
                                + "'target':{'apiVersion':'v1','kind':'Node','name':'n1'}}");
        assertEquals(WriteOutcome.Answer.CREATED, out.answer());
        assertTrue(out.changed());
        assertEquals(before, out.before());
        assertEquals("n1", out.after().path("spec").path("nodeName").asText());
        assertEquals(
                "2026-03-04T05:06:07Z",
                out.after()
                        .path("status")
                        .path("conditions")
                        .get(0)
                        .path("lastTransitionTime")
                        .asText());
        // Written past the pod's strategy and field manager, as kube-apiserver's storage update is.
        assertEquals(
                before.path("metadata").path("generation"),
                out.after().path("metadata").path("generation"));
        assertEquals(
                before.path("metadata").path("managedFields"),
                out.after().path("metadata").path("managedFields"));
        assertEquals(
                obj(
                        "{'kind':'Status','apiVersion':'v1','metadata':{},'status':'Success','code':201}"),
                Responses.render(PODS, out));
        assertEquals(
                "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}",
                Json.string(Responses.render(PODS, out)));
    }

    @Test
    void aForwardedBindingNamesThePodInItsBody() {
        WriteOutcome out = forward("{'metadata':{'name':'web'},'target':{'name':'n1'}}");
        assertEquals("n1", out.after().path("spec").path("nodeName").asText());
        assertEquals(WriteOutcome.Answer.CREATED, out.answer());
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of(
                        "a body naming another pod",
                        "web",
                        "{'metadata':{'name':'api'},'target':{'name':'n1'}}",
                        400,
                        "BadRequest",
                        "name in URL does not match name in Binding object"),
                Arguments.of(
                        "a body naming no pod",
                        "web",
                        "{'target':{'name':'n1'}}",
                        400,
                        "BadRequest",
                        "name in URL does not match name in Binding object"),
                Arguments.of(
                        "a body in another namespace",
                        "web",
                        "{'metadata':{'name':'web','namespace':'other'},'target':{'name':'n1'}}",
                        400,
                        "BadRequest",
                        "the namespace of the provided object does not match the namespace sent on the request"),
                Arguments.of(
                        "a body of another kind",
                        "web",
                        "{'kind':'Pod','metadata':{'name':'web'}}",
                        400,
                        "BadRequest",
                        "Pod in version \"v1\" cannot be handled as a Binding: converting (v1.Pod) to "
                                + "(core.Binding): unknown conversion"),
                Arguments.of(
                        "no target name",
                        "web",
                        "{'metadata':{'name':'web'},'target':{'kind':'Node'}}",
                        422,
                        "Invalid",
                        "Binding \"web\" is invalid: target.name: Required value"),
                Arguments.of(
                        "a pod that does not exist",
                        "api",
                        "{'metadata':{'name':'api'},'target':{'name':'n1'}}",
                        404,
                        "NotFound",
                        "pods \"api\" not found"),
                Arguments.of(
                        "another uid",
                        "web",
                        "{'metadata':{'name':'web','uid':'u9'},'target':{'name':'n1'}}",
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on pods \"web\": StorageError: invalid object, "
                                + "Code: 4, Key: /registry/pods/default/web, ResourceVersion: 0, AdditionalErrorMsg: "
                                + "Precondition failed: UID in precondition: u9, UID in object meta: uid-1"),
                Arguments.of(
                        "another resourceVersion",
                        "web",
                        "{'metadata':{'name':'web','resourceVersion':'4'},'target':{'name':'n1'}}",
                        409,
                        "Conflict",
                        "Operation cannot be fulfilled on pods \"web\": StorageError: invalid object, Code: 4, Key: "
                                + "/registry/pods/default/web, ResourceVersion: 0, AdditionalErrorMsg: Precondition "
                                + "failed: ResourceVersion in precondition: 4, ResourceVersion in object meta: 5"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesAsKubeApiserver(
            String name, String urlName, String body, int code, String reason, String message) {
        ApiStatus status = refused(() -> bind(urlName, body));
        assertEquals(message, status.message());
        assertEquals(reason, status.reason());
        assertEquals(code, status.code());
    }

    @Test
    void matchingPreconditionsBind() {
        WriteOutcome out =
                bind(
                        "web",
                        "{'metadata':{'name':'web','uid':'uid-1','resourceVersion':'5'},"
                                + "'target':{'name':'n1'}}");
        assertEquals("n1", out.after().path("spec").path("nodeName").asText());
    }

    @Test
    void aForwardedBindingLosesItsUidButKeepsItsResourceVersionPrecondition() {
        WriteOutcome out = forward("{'metadata':{'name':'web','uid':'u9'},'target':{'name':'n1'}}");
        assertEquals("n1", out.after().path("spec").path("nodeName").asText());
        store.get("web").withObjectProperty("spec").remove("nodeName");
        ApiStatus status =
                refused(
                        () ->
                                forward(
                                        "{'metadata':{'name':'web','resourceVersion':'4'},'target':{'name':'n1'}}"));
        assertEquals(409, status.code());
        assertTrue(
                status.message()
                        .endsWith(
                                "ResourceVersion in precondition: 4, ResourceVersion in object meta: 5"),
                status.message());
    }

    static Stream<Arguments> forwardedNames() {
        return Stream.of(
                Arguments.of("{'target':{'name':'n1'}}", "Name parameter required."),
                Arguments.of(
                        "{'metadata':{'name':'..'},'target':{'name':'n1'}}",
                        "Name parameter invalid: \"..\": may not be '..'"),
                Arguments.of(
                        "{'metadata':{'name':'a/b'},'target':{'name':'n1'}}",
                        "Name parameter invalid: \"a/b\": may not contain '/'"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("forwardedNames")
    void aForwardedBindingNeedsAUsableName(String body, String message) {
        ApiStatus status = refused(() -> forward(body));
        assertEquals(400, status.code());
        assertEquals(message, status.message());
    }

    @Test
    void validationComesBeforeTheNameCheckOfAForwardedBinding() {
        ApiStatus status = refused(() -> forward("{'target':{'kind':'Pod','name':'n1'}}"));
        assertEquals(422, status.code());
        assertEquals(
                "Binding \"\" is invalid: target.kind: Unsupported value: \"Pod\": supported values: \"Node\", "
                        + "\"<empty>\"",
                status.message());
        assertEquals("Binding", status.details().kind());
    }

    @Test
    void aSecondBindingConflicts() {
        store.put("web", bind("web", "{'metadata':{'name':'web'},'target':{'name':'n1'}}").after());
        ApiStatus status =
                refused(() -> bind("web", "{'metadata':{'name':'web'},'target':{'name':'n2'}}"));
        assertEquals(409, status.code());
        assertEquals(
                "Operation cannot be fulfilled on pods/binding \"web\": pod web is already assigned to node \"n1\"",
                status.message());
    }

    @Test
    void aSubresourceWithoutACreateIsNotFound() {
        ApiStatus status =
                assertInstanceOf(
                                WriteResult.Refused.class,
                                writes.execute(
                                        PODS,
                                        "default",
                                        store::get,
                                        new WriteOp.CreateSubresource(
                                                "web",
                                                "status",
                                                obj("{'metadata':{'name':'web'}}"),
                                                null,
                                                WriteOptions.DEFAULT),
                                        env))
                        .status();
        assertEquals(404, status.code());
    }
}
