package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.http.security.Pem;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Service accounts through the API, with the controllers running: every namespace gets the {@code
 * default} ServiceAccount (again after it is deleted) and the {@code kube-root-ca.crt} ConfigMap
 * with the server's CA; a pod created gets {@code serviceAccountName: default}, kube's token volume
 * and its read-only mounts (also when it is created the moment its namespace is, before the account
 * exists: kube's live look-up retries), none when automounting is off, a 403 when its account does
 * not exist; a dry run shows all that and stores nothing.
 */
class ServiceAccountAdmissionIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s -> s.withConfig("kubepekko.controllers.root-ca-cert-publisher.enabled = on"));

    private static String newNamespace() {
        String ns = "sa-" + names.incrementAndGet();
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    private static String pods(String ns) {
        return "/api/v1/namespaces/" + ns + "/pods";
    }

    private static String accounts(String ns) {
        return "/api/v1/namespaces/" + ns + "/serviceaccounts";
    }

    private static String pod(String name, String spec) {
        return json(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                        + name
                        + "'},'spec':"
                        + spec
                        + "}");
    }

    private static final String ONE_CONTAINER = "'containers':[{'name':'app','image':'nginx'}]";

    @Test
    void everyNamespaceGetsTheDefaultAccountBackAfterItsDeletion() {
        String ns = newNamespace();
        String path = accounts(ns) + "/default";
        await().atMost(DEADLINE).until(() -> api.get(path).code() == 200);
        String uid = api.get(path).json().at("/metadata/uid").asText();
        api.delete(path).assertCode(200);
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            Response r = api.get(path);
                            return r.code() == 200
                                    && !r.json().at("/metadata/uid").asText().equals(uid);
                        });
    }

    @Test
    void everyNamespaceGetsTheRootCaConfigMapRestoredWhenChanged() {
        String ns = newNamespace();
        String path = "/api/v1/namespaces/" + ns + "/configmaps/kube-root-ca.crt";
        await().atMost(DEADLINE).until(() -> api.get(path).code() == 200);
        ObjectNode cm = api.get(path).json();
        String ca = Pem.encode(api.server().pki().serverCa());
        assertEquals(ca, cm.at("/data/ca.crt").asText());
        assertEquals(1, cm.path("data").size());
        assertEquals(
                "Contains a CA bundle that can be used to verify the kube-apiserver when using"
                        + " internal endpoints such as the internal service IP or"
                        + " kubernetes.default.svc. No other usage is guaranteed across"
                        + " distributions of Kubernetes clusters.",
                cm.at("/metadata/annotations/kubernetes.io~1description").asText());

        api.patch(
                        path,
                        "application/merge-patch+json",
                        json("{'data':{'ca.crt':'tampered','extra':'x'}}"))
                .assertCode(200);
        await().atMost(DEADLINE)
                .until(
                        () -> {
                            JsonNode data = api.get(path).json().path("data");
                            return data.size() == 1 && data.path("ca.crt").asText().equals(ca);
                        });
    }

    @Test
    void aPodCreatedWithItsNamespaceRunsAsDefaultWithTheTokenVolumeMounted() {
        // No wait for the account: the plugin's live look-up retries until the controller made it.
        String ns = newNamespace();
        ObjectNode created =
                api.create(
                        pods(ns),
                        pod(
                                "web",
                                "{'initContainers':[{'name':'init','image':'busybox'}],"
                                        + "'containers':[{'name':'app','image':'nginx'},"
                                        + "{'name':'own','image':'nginx','volumeMounts':"
                                        + "[{'name':'mine','mountPath':'"
                                        + MOUNT
                                        + "'}]}],"
                                        + "'volumes':[{'name':'mine','emptyDir':{}}]}"));
        JsonNode spec = created.path("spec");
        assertEquals("default", spec.path("serviceAccountName").asText());
        assertEquals(2, spec.path("volumes").size());
        JsonNode volume = spec.path("volumes").get(1);
        String name = volume.path("name").asText();
        assertTrue(name.matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}"), name);
        assertEquals(
                TestApiServer.obj(
                        "{'defaultMode':420,'sources':["
                                + "{'serviceAccountToken':{'expirationSeconds':3607,'path':'token'}},"
                                + "{'configMap':{'name':'kube-root-ca.crt',"
                                + "'items':[{'key':'ca.crt','path':'ca.crt'}]}},"
                                + "{'downwardAPI':{'items':[{'path':'namespace',"
                                + "'fieldRef':{'apiVersion':'v1','fieldPath':'metadata.namespace'}}]}}]}"),
                volume.path("projected"));
        JsonNode mount =
                TestApiServer.obj(
                        "{'name':'" + name + "','readOnly':true,'mountPath':'" + MOUNT + "'}");
        assertEquals(mount, spec.at("/initContainers/0/volumeMounts/0"));
        assertEquals(mount, spec.at("/containers/0/volumeMounts/0"));
        assertEquals(1, spec.at("/containers/1/volumeMounts").size());
        assertEquals("mine", spec.at("/containers/1/volumeMounts/0/name").asText());
        assertEquals(spec, api.get(pods(ns) + "/web").assertCode(200).json().path("spec"));
    }

    @Test
    void aPodOfAMissingAccountIsForbidden() {
        String ns = newNamespace();
        Response r =
                api.post(pods(ns), pod("p", "{'serviceAccountName':'nope'," + ONE_CONTAINER + "}"));
        r.assertCode(403);
        assertEquals(
                "pods \"p\" is forbidden: error looking up service account "
                        + ns
                        + "/nope: serviceaccount \"nope\" not found",
                r.json().path("message").asText());
        api.get(pods(ns) + "/p").assertCode(404);
    }

    @Test
    void automountOffOnThePodOrItsAccountMountsNothing() {
        String ns = newNamespace();
        api.create(
                accounts(ns),
                json(
                        "{'apiVersion':'v1','kind':'ServiceAccount','metadata':{'name':'quiet'},"
                                + "'automountServiceAccountToken':false}"));
        ObjectNode podOff =
                api.create(
                        pods(ns),
                        pod("off", "{'automountServiceAccountToken':false," + ONE_CONTAINER + "}"));
        assertFalse(podOff.path("spec").has("volumes"));
        assertFalse(podOff.at("/spec/containers/0").has("volumeMounts"));
        assertEquals("default", podOff.at("/spec/serviceAccountName").asText());

        ObjectNode accountOff =
                api.create(
                        pods(ns),
                        pod("quiet", "{'serviceAccountName':'quiet'," + ONE_CONTAINER + "}"));
        assertFalse(accountOff.path("spec").has("volumes"));

        ObjectNode podWins =
                api.create(
                        pods(ns),
                        pod(
                                "loud",
                                "{'serviceAccountName':'quiet','automountServiceAccountToken':true,"
                                        + ONE_CONTAINER
                                        + "}"));
        assertEquals(1, podWins.path("spec").path("volumes").size());
    }

    @Test
    void aDryRunShowsTheVolumeAndStoresNothing() {
        String ns = newNamespace();
        Response r = api.post(pods(ns) + "?dryRun=All", pod("dry", "{" + ONE_CONTAINER + "}"));
        r.assertCode(201);
        assertEquals("default", r.json().at("/spec/serviceAccountName").asText());
        assertTrue(r.json().at("/spec/volumes/0/name").asText().startsWith("kube-api-access-"));
        api.get(pods(ns) + "/dry").assertCode(404);
    }

    @Test
    void aMirrorPodMayNotNameAnAccount() {
        String ns = newNamespace();
        Response r =
                api.post(
                        pods(ns),
                        json(
                                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'m',"
                                        + "'annotations':{'kubernetes.io/config.mirror':'x'}},"
                                        + "'spec':{'serviceAccountName':'default',"
                                        + ONE_CONTAINER
                                        + "}}"));
        r.assertCode(403);
        assertEquals(
                "pods \"m\" is forbidden: a mirror pod may not reference service accounts",
                r.json().path("message").asText());
        ObjectNode mirror =
                api.create(
                        pods(ns),
                        json(
                                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'m2',"
                                        + "'annotations':{'kubernetes.io/config.mirror':'x'}},"
                                        + "'spec':{"
                                        + ONE_CONTAINER
                                        + "}}"));
        assertNotEquals("default", mirror.at("/spec/serviceAccountName").asText("none"));
        assertFalse(mirror.path("spec").has("volumes"));
    }
}
