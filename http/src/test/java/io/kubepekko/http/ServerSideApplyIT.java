package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.obj;
import static io.kubepekko.http.TestApiServer.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side apply over HTTP ({@code PATCH} with {@code application/apply-patch+yaml}): create or
 * apply, the request checks kube-apiserver makes, the conflict Status, force, and dry-run. The
 * ownership rules themselves are covered by the scenario scripts of {@code
 * ServerSideApplyScenariosTest}.
 */
class ServerSideApplyIT {

    private static final String APPLY = "application/apply-patch+yaml";
    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String unique() {
        return "ssa-" + names.incrementAndGet();
    }

    private static String yaml(String name, String data) {
        return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n" + data;
    }

    @Test
    void applyCreatesWith201ThenAppliesWith200() {
        String name = unique();
        Response created =
                api.patch(
                                CMS + "/" + name + "?fieldManager=tester",
                                APPLY,
                                yaml(name, "  a: \"1\"\n"))
                        .assertCode(201);
        ObjectNode cm = created.json();
        assertEquals("1", cm.at("/data/a").asText());
        JsonNode entry = cm.at("/metadata/managedFields/0");
        assertEquals("tester", entry.path("manager").asText());
        assertEquals("Apply", entry.path("operation").asText());
        assertEquals("v1", entry.path("apiVersion").asText());
        assertEquals("FieldsV1", entry.path("fieldsType").asText());
        assertEquals(json("{'f:data':{'f:a':{}}}"), entry.path("fieldsV1").toString());

        ObjectNode applied =
                api.patch(
                                CMS + "/" + name + "?fieldManager=tester",
                                APPLY,
                                json(
                                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                                + name
                                                + "'},'data':{'b':'2'}}"))
                        .assertCode(200)
                        .json();
        assertEquals(
                json("{'b':'2'}"),
                applied.path("data").toString(),
                "a field no longer applied is removed");
        assertEquals(cm.at("/metadata/uid"), applied.at("/metadata/uid"));
    }

    @Test
    void nameMayComeFromTheUrl() {
        String name = unique();
        ObjectNode cm =
                api.patch(
                                CMS + "/" + name + "?fieldManager=tester",
                                APPLY,
                                "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: x\n")
                        .assertCode(201)
                        .json();
        assertEquals(name, cm.at("/metadata/name").asText());
        assertEquals("default", cm.at("/metadata/namespace").asText());
    }

    @Test
    void applyCannotCreateInAMissingNamespace() {
        api.patch(
                        "/api/v1/namespaces/nowhere/configmaps/x?fieldManager=m",
                        APPLY,
                        yaml("x", "  a: x\n"))
                .assertStatus(404, "NotFound", "namespaces \"nowhere\" not found");
    }

    @Test
    void yamlFlowStyleIsYamlToo() {
        String name = unique();
        ObjectNode cm =
                api.patch(
                                CMS + "/" + name + "?fieldManager=m",
                                APPLY,
                                "{apiVersion: v1, kind: ConfigMap, data: {a: flow}}")
                        .assertCode(201)
                        .json();
        assertEquals("flow", cm.at("/data/a").asText());
    }

    @Test
    void fieldManagerIsRequired() {
        String name = unique();
        api.patch(CMS + "/" + name, APPLY, yaml(name, "  a: x\n"))
                .assertStatus(
                        422,
                        "Invalid",
                        "PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply patch");
        api.get(CMS + "/" + name).assertCode(404);
    }

    @Test
    void forceIsOnlyForApply() {
        String name = unique();
        api.create(
                CMS,
                json("{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'" + name + "'}}"));
        api.patch(
                        CMS + "/" + name + "?force=true",
                        "application/merge-patch+json",
                        json("{'data':{'a':'1'}}"))
                .assertStatus(
                        422,
                        "Invalid",
                        "PatchOptions.meta.k8s.io \"\" is invalid: force: Forbidden: may not be "
                                + "specified for non-apply patch");
        api.patch(CMS + "/" + name + "?fieldManager=m&force=maybe", APPLY, yaml(name, "  a: x\n"))
                .assertStatus(
                        400, "BadRequest", "strconv.ParseBool: parsing \"maybe\": invalid syntax");
    }

    @Test
    void bodyChecks() {
        String name = unique();
        String url = CMS + "/" + name + "?fieldManager=m";
        api.patch(
                        url,
                        APPLY,
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                                + name
                                + "\n  managedFields:\n  - manager: x\n")
                .assertStatus(400, "BadRequest", "metadata.managedFields must be nil");
        api.patch(url, APPLY, yaml("other", "  a: x\n"))
                .assertStatus(
                        400,
                        "BadRequest",
                        "the name of the object (other) does not match the name on the URL ("
                                + name
                                + ")");
        api.patch(url, APPLY, "apiVersion: apps/v1\nkind: ConfigMap\n")
                .assertStatus(400, "BadRequest", "invalid object type: apps/v1, Kind=ConfigMap");
        api.patch(url, APPLY, "data: [unclosed")
                .assertStatusMessageStartsWith(400, "BadRequest", "error decoding patch: ");
        api.patch(url + "&fieldValidation=Strict", APPLY, yaml(name, "  a: x\nspec: {}\n"))
                .assertFailure(400, "BadRequest");
        api.get(CMS + "/" + name).assertCode(404);
    }

    @Test
    void conflictIsA409WithOneCausePerField() {
        String name = unique();
        api.patch(
                        CMS + "/" + name + "?fieldManager=first",
                        APPLY,
                        yaml(name, "  a: \"1\"\n  b: \"1\"\n"))
                .assertCode(201);
        ObjectNode status =
                api.patch(
                                CMS + "/" + name + "?fieldManager=second&force=false",
                                APPLY,
                                yaml(name, "  a: \"2\"\n  b: \"2\"\n"))
                        .assertStatus(
                                409,
                                "Conflict",
                                "Apply failed with 2 conflicts: conflicts with \"first\":\n- .data.a\n- .data.b");
        JsonNode causes = status.at("/details/causes");
        assertEquals(2, causes.size());
        assertEquals("FieldManagerConflict", causes.get(0).path("reason").asText());
        assertEquals("conflict with \"first\"", causes.get(0).path("message").asText());
        assertEquals(".data.a", causes.get(0).path("field").asText());
        assertFalse(
                status.path("details").has("name"), "kube names no object in an apply conflict");
        assertFalse(status.path("details").has("kind"));

        ObjectNode forced =
                api.patch(
                                CMS + "/" + name + "?fieldManager=second&force=true",
                                APPLY,
                                yaml(name, "  a: \"2\"\n"))
                        .assertCode(200)
                        .json();
        assertEquals("2", forced.at("/data/a").asText());
        JsonNode entries = forced.at("/metadata/managedFields");
        assertEquals(2, entries.size());
        assertEquals("first", entries.get(0).path("manager").asText());
        assertEquals(json("{'f:data':{'f:b':{}}}"), entries.get(0).path("fieldsV1").toString());
        assertEquals("second", entries.get(1).path("manager").asText());
    }

    @Test
    void dryRunPersistsNothing() {
        String name = unique();
        ObjectNode dry =
                api.patch(
                                CMS + "/" + name + "?fieldManager=m&dryRun=All",
                                APPLY,
                                yaml(name, "  a: x\n"))
                        .assertCode(201)
                        .json();
        assertEquals("x", dry.at("/data/a").asText());
        api.get(CMS + "/" + name).assertCode(404);
        ObjectNode real =
                api.patch(CMS + "/" + name + "?fieldManager=m", APPLY, yaml(name, "  a: x\n"))
                        .assertCode(201)
                        .json();
        ObjectNode dryChange =
                api.patch(
                                CMS + "/" + name + "?fieldManager=m&dryRun=All",
                                APPLY,
                                yaml(name, "  a: y\n"))
                        .assertCode(200)
                        .json();
        assertEquals("y", dryChange.at("/data/a").asText());
        ObjectNode after = api.get(CMS + "/" + name).assertCode(200).json();
        assertEquals("x", after.at("/data/a").asText());
        assertEquals(real.at("/metadata/resourceVersion"), after.at("/metadata/resourceVersion"));
    }

    @Test
    void jsonBodiesAreAppliedToo() {
        String name = unique();
        api.patch(
                        "/apis/apps/v1/namespaces/default/deployments/" + name + "?fieldManager=m",
                        APPLY,
                        json(
                                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                                        + name
                                        + "'},'spec':{"
                                        + "'selector':{'matchLabels':{'app':'w'}},'template':{'metadata':{'labels':{'app':'w'}},"
                                        + "'spec':{'containers':[{'name':'c','image':'nginx'}]}}}}"))
                .assertCode(201);
        ObjectNode d =
                api.get("/apis/apps/v1/namespaces/default/deployments/" + name)
                        .assertCode(200)
                        .json();
        assertEquals(
                1, d.at("/spec/replicas").asInt(), "defaults apply to objects created by apply");
        assertEquals("25%", d.at("/spec/strategy/rollingUpdate/maxSurge").asText());
        assertTrue(d.at("/metadata/managedFields/0/fieldsV1/f:spec/f:template").isObject());
    }

    /**
     * The requests of {@code kubectl apply} followed by {@code kubectl apply --server-side}
     * (kubectl 1.35, CLIENT-CONTRACT §4.7): the apply, kubectl-last-applied saving the annotation,
     * the csaupgrade JSON patch giving kubectl's Apply entry the client-side manager's fields (maps
     * as nodes), and the apply sent again. The object keeps its data and labels, and a further
     * apply finds nothing left to migrate (the annotation has an Apply owner).
     */
    @Test
    void kubectlMigrationFromClientSideApplyKeepsTheObjectAndSettles() {
        String name = unique();
        String lastApplied =
                "{\"apiVersion\":\"v1\",\"data\":{\"key\":\"v1\"},\"kind\":\"ConfigMap\",\"metadata\":"
                        + "{\"annotations\":{},\"labels\":{\"app\":\"demo\"},\"name\":\""
                        + name
                        + "\",\"namespace\":\"default\"}}\n";
        ObjectNode csa =
                obj(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "',"
                                + "'labels':{'app':'demo'}},'data':{'key':'v1'}}");
        ((ObjectNode) csa.get("metadata")).putObject("annotations").put(LAST_APPLIED, lastApplied);
        api.post(
                        CMS + "?fieldManager=kubectl-client-side-apply&fieldValidation=Strict",
                        csa.toString())
                .assertCode(201);

        String config =
                json(
                        "{'apiVersion':'v1','data':{'key':'v2'},'kind':'ConfigMap','metadata':{'labels':"
                                + "{'app':'demo'},'name':'"
                                + name
                                + "','namespace':'default'}}");
        String url = CMS + "/" + name + "?fieldManager=kubectl&fieldValidation=Strict&force=false";
        ObjectNode applied = api.patch(url, APPLY, config).assertCode(200).json();
        ObjectNode annotation =
                obj(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                                + name
                                + "','namespace':'default'}}");
        ((ObjectNode) annotation.get("metadata"))
                .putObject("annotations")
                .put(LAST_APPLIED, applied.at("/metadata/annotations").path(LAST_APPLIED).asText());
        ObjectNode saved =
                api.patch(
                                CMS
                                        + "/"
                                        + name
                                        + "?fieldManager=kubectl-last-applied&fieldValidation=Strict",
                                APPLY,
                                annotation.toString())
                        .assertCode(200)
                        .json();
        String migration =
                json(
                        "[{'op':'replace','path':'/metadata/managedFields','value':["
                                + "{'manager':'kubectl','operation':'Apply','apiVersion':'v1','time':'2026-01-01T00:00:00Z',"
                                + "'fieldsType':'FieldsV1','fieldsV1':{'f:data':{'.':{},'f:key':{}},'f:metadata':{'f:annotations':"
                                + "{'.':{},'f:kubectl.kubernetes.io/last-applied-configuration':{}},'f:labels':{'.':{},'f:app':{}}}}},"
                                + "{'manager':'kubectl-last-applied','operation':'Apply','apiVersion':'v1','time':'2026-01-01T00:00:00Z',"
                                + "'fieldsType':'FieldsV1','fieldsV1':{'f:metadata':{'f:annotations':"
                                + "{'f:kubectl.kubernetes.io/last-applied-configuration':{}}}}}]},"
                                + "{'op':'replace','path':'/metadata/resourceVersion','value':'"
                                + rv(saved)
                                + "'}]");
        api.patch(
                        CMS + "/" + name + "?fieldManager=kubectl&fieldValidation=Strict",
                        "application/json-patch+json",
                        migration)
                .assertCode(200);

        ObjectNode reapplied = api.patch(url, APPLY, config).assertCode(200).json();
        assertEquals(json("{'key':'v2'}"), reapplied.path("data").toString());
        assertEquals(json("{'app':'demo'}"), reapplied.at("/metadata/labels").toString());
        JsonNode entries = reapplied.at("/metadata/managedFields");
        assertEquals(2, entries.size(), entries.toString());
        assertEquals("kubectl", entries.get(0).path("manager").asText());
        assertEquals(
                json("{'f:data':{'f:key':{}},'f:metadata':{'f:labels':{'f:app':{}}}}"),
                entries.get(0).path("fieldsV1").toString());
        assertEquals("kubectl-last-applied", entries.get(1).path("manager").asText());
        assertTrue(
                reapplied
                        .at("/metadata/annotations")
                        .path(LAST_APPLIED)
                        .asText()
                        .contains("\"key\":\"v2\""));
    }

    @Test
    void aPortWithoutProtocolIsTheLivePortWithTheDefaultProtocol() {
        String name = unique();
        String url = "/apis/apps/v1/namespaces/default/deployments/" + name + "?fieldManager=m";
        String deployment =
                "{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'"
                        + name
                        + "'},'spec':{"
                        + "'selector':{'matchLabels':{'app':'w'}},'template':{'metadata':{'labels':{'app':'w'}},"
                        + "'spec':{'containers':[{'name':'c','image':'%s','ports':[{'containerPort':80}]}]}}}}";
        api.patch(url, APPLY, json(deployment.formatted("nginx:1"))).assertCode(201);
        ObjectNode d =
                api.patch(url, APPLY, json(deployment.formatted("nginx:2"))).assertCode(200).json();
        assertEquals(
                json("[{'containerPort':80,'protocol':'TCP'}]"),
                d.at("/spec/template/spec/containers/0/ports").toString());
        assertTrue(
                d.at(
                                "/metadata/managedFields/0/fieldsV1/f:spec/f:template/f:spec/f:containers/k:{\"name\":\"c\"}"
                                        + "/f:ports")
                        .has("k:{\"containerPort\":80,\"protocol\":\"TCP\"}"));
    }
}
