package io.kubepekko.api.admission.serviceaccount;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * kube's ServiceAccount admission plugin, after the cases of its {@code admission_test.go}: what it
 * ignores, mirror pods, the default account, a missing account, the bound token volume and its
 * mounts (init containers too, not over an existing mount, no second volume), automount
 * preferences, image pull secrets, mountable secrets, and the live look-up with its retries.
 */
class ServiceAccountAdmissionTest {

    private static final UserInfo EVE = UserInfo.of("eve", List.of());
    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final String MOUNT = "/var/run/secrets/kubernetes.io/serviceaccount";

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static ObjectNode account(String ns, String name, String extra) {
        return obj("{'metadata':{'namespace':'" + ns + "','name':'" + name + "'" + extra + "}}");
    }

    private static ServiceAccountIndex index(ObjectNode... accounts) {
        ServiceAccountIndex index = new ServiceAccountIndex(Clock.systemUTC());
        index.replace(List.of(accounts));
        return index;
    }

    private static ServiceAccountAdmission plugin(ServiceAccountIndex index) {
        return new ServiceAccountAdmission(
                index,
                () -> "abcde",
                (ns, name) -> CompletableFuture.completedFuture(Optional.empty()),
                millis -> CompletableFuture.completedFuture(null),
                () -> 150L);
    }

    private static AdmissionRequest create(ObjectNode pod) {
        return new AdmissionRequest(Operation.CREATE, EVE, PODS, "", "ns", "p", pod, null, false);
    }

    private static ObjectNode admitted(ServiceAccountAdmission plugin, ObjectNode pod) {
        Mutation m = plugin.admit(create(pod));
        assertTrue(m instanceof Mutation.Admitted, m.toString());
        return ((Mutation.Admitted) m).object();
    }

    private static String refused(ServiceAccountAdmission plugin, ObjectNode pod) {
        Mutation m = plugin.admit(create(pod));
        assertTrue(m instanceof Mutation.Refused, m.toString());
        ApiStatus status = ((Mutation.Refused) m).status();
        assertEquals(403, status.code());
        return status.message();
    }

    private static final ServiceAccountAdmission WITH_DEFAULT =
            plugin(index(account("ns", "default", "")));

    @Test
    void ignoresOtherOperationsResourcesSubresourcesAndDeletes() {
        ObjectNode pod = obj("{'spec':{'containers':[{'name':'c'}]}}");
        ServiceAccountAdmission none = plugin(index());
        for (AdmissionRequest r :
                List.of(
                        new AdmissionRequest(
                                Operation.UPDATE, EVE, PODS, "", "ns", "p", pod, pod, false),
                        new AdmissionRequest(
                                Operation.CREATE,
                                EVE,
                                new GroupResource("", "configmaps"),
                                "",
                                "ns",
                                "p",
                                pod,
                                null,
                                false),
                        new AdmissionRequest(
                                Operation.CREATE,
                                EVE,
                                PODS,
                                "binding",
                                "ns",
                                "p",
                                pod,
                                null,
                                false),
                        new AdmissionRequest(
                                Operation.DELETE, EVE, PODS, "", "ns", "p", null, pod, false))) {
            Mutation m = none.admit(r);
            assertTrue(m instanceof Mutation.Admitted);
            assertSame(r.object(), ((Mutation.Admitted) m).object());
            assertTrue(none.refusal(r).isEmpty());
        }
    }

    @Test
    void aMirrorPodIsLeftAloneAndMayNotNameAnAccountSecretsOrTokens() {
        String mirror = "'metadata':{'annotations':{'kubernetes.io/config.mirror':'x'}}";
        ServiceAccountAdmission none = plugin(index());
        ObjectNode plain = obj("{" + mirror + ",'spec':{'containers':[{'name':'c'}]}}");
        assertSame(plain, admitted(none, plain));
        assertEquals(
                "pods \"p\" is forbidden: a mirror pod may not reference service accounts",
                refused(
                        none,
                        obj(
                                "{"
                                        + mirror
                                        + ",'spec':{'serviceAccountName':'default','containers':[{'name':'c'}]}}")));
        for (String spec :
                List.of(
                        "{'volumes':[{'name':'v','secret':{'secretName':'s'}}]}",
                        "{'imagePullSecrets':[{'name':'s'}]}",
                        "{'containers':[{'name':'c','envFrom':[{'secretRef':{'name':'s'}}]}]}",
                        "{'ephemeralContainers':[{'name':'c','env':[{'name':'e','valueFrom':"
                                + "{'secretKeyRef':{'name':'s','key':'k'}}}]}]}",
                        "{'volumes':[{'name':'v','projected':{'sources':[{'secret':{'name':'s'}}]}}]}",
                        "{'volumes':[{'name':'v','csi':{'driver':'d','nodePublishSecretRef':{'name':'s'}}}]}")) {
            assertEquals(
                    "pods \"p\" is forbidden: a mirror pod may not reference secrets",
                    refused(none, obj("{" + mirror + ",'spec':" + spec + "}")),
                    spec);
        }
        assertEquals(
                "pods \"p\" is forbidden: a mirror pod may not use ServiceAccountToken volume"
                        + " projections",
                refused(
                        none,
                        obj(
                                "{"
                                        + mirror
                                        + ",'spec':{'volumes':[{'name':'v','projected':{'sources':"
                                        + "[{'serviceAccountToken':{'path':'t'}}]}}]}}")));
    }

    @Test
    void aPodRunsAsDefaultWithTheBoundTokenVolumeInEveryContainer() {
        ObjectNode pod =
                obj(
                        "{'spec':{'initContainers':[{'name':'i'}],'containers':[{'name':'a'},{'name':'b',"
                                + "'volumeMounts':[{'name':'x','mountPath':'/x'}]}],"
                                + "'ephemeralContainers':[{'name':'e'}]}}");
        ObjectNode out = admitted(WITH_DEFAULT, pod);
        JsonNode spec = out.path("spec");
        assertEquals("default", spec.path("serviceAccountName").asText());
        assertFalse(pod.path("spec").has("serviceAccountName"), "the request's pod is not changed");
        assertEquals(
                obj("{'v':[{'name':'kube-api-access-abcde','projected':{'sources':["
                                + "{'serviceAccountToken':{'expirationSeconds':3607,'path':'token'}},"
                                + "{'configMap':{'name':'kube-root-ca.crt','items':[{'key':'ca.crt','path':'ca.crt'}]}},"
                                + "{'downwardAPI':{'items':[{'path':'namespace','fieldRef':"
                                + "{'apiVersion':'v1','fieldPath':'metadata.namespace'}}]}}],"
                                + "'defaultMode':420}}]}")
                        .path("v"),
                spec.path("volumes"));
        JsonNode mount =
                obj("{'name':'kube-api-access-abcde','readOnly':true,'mountPath':'" + MOUNT + "'}");
        assertEquals(mount, spec.at("/initContainers/0/volumeMounts/0"));
        assertEquals(mount, spec.at("/containers/0/volumeMounts/0"));
        assertEquals(mount, spec.at("/containers/1/volumeMounts/1"));
        assertFalse(spec.at("/ephemeralContainers/0").has("volumeMounts"));
    }

    @Test
    void anExistingMountAtThePathIsRespectedAndAnExistingTokenVolumeReused() {
        ObjectNode mounted =
                admitted(
                        WITH_DEFAULT,
                        obj(
                                "{'spec':{'containers':[{'name':'a','volumeMounts':[{'name':'mine','mountPath':'"
                                        + MOUNT
                                        + "'}]}],'volumes':[{'name':'mine','emptyDir':{}}]}}"));
        assertEquals(1, mounted.at("/spec/volumes").size(), "no container needs the volume");
        assertEquals(1, mounted.at("/spec/containers/0/volumeMounts").size());

        ObjectNode reused =
                admitted(
                        WITH_DEFAULT,
                        obj(
                                "{'spec':{'containers':[{'name':'a'}],"
                                        + "'volumes':[{'name':'kube-api-access-xyz12','emptyDir':{}}]}}"));
        assertEquals(1, reused.at("/spec/volumes").size());
        assertEquals(
                "kube-api-access-xyz12",
                reused.at("/spec/containers/0/volumeMounts/0/name").asText());
    }

    @Test
    void aMissingAccountIsForbiddenAsKubeWordsIt() {
        assertEquals(
                "pods \"p\" is forbidden: error looking up service account ns/builder:"
                        + " serviceaccount \"builder\" not found",
                refused(
                        WITH_DEFAULT,
                        obj(
                                "{'spec':{'serviceAccountName':'builder','containers':[{'name':'c'}]}}")));
        assertEquals(
                "pods \"p\" is forbidden: error looking up service account ns/default:"
                        + " serviceaccount \"default\" not found",
                refused(plugin(index()), obj("{'spec':{'containers':[{'name':'c'}]}}")));
        Optional<ApiStatus> validating =
                WITH_DEFAULT.refusal(
                        create(obj("{'spec':{'serviceAccountName':'gone','containers':[]}}")));
        assertTrue(validating.isPresent());
    }

    @Test
    void automountFollowsThePodThenTheAccountThenTrue() {
        ServiceAccountAdmission plugin =
                plugin(
                        index(
                                account("ns", "default", ""),
                                account(
                                        "ns",
                                        "quiet",
                                        "},'automountServiceAccountToken':false,'x':{"),
                                account(
                                        "ns",
                                        "loud",
                                        "},'automountServiceAccountToken':true,'x':{")));
        assertFalse(
                admitted(
                                plugin,
                                obj(
                                        "{'spec':{'automountServiceAccountToken':false,'containers':[{'name':'c'}]}}"))
                        .path("spec")
                        .has("volumes"));
        assertFalse(
                admitted(
                                plugin,
                                obj(
                                        "{'spec':{'serviceAccountName':'quiet','containers':[{'name':'c'}]}}"))
                        .path("spec")
                        .has("volumes"));
        assertTrue(
                admitted(
                                plugin,
                                obj(
                                        "{'spec':{'serviceAccountName':'quiet','automountServiceAccountToken':true,"
                                                + "'containers':[{'name':'c'}]}}"))
                        .path("spec")
                        .has("volumes"));
        assertFalse(
                admitted(
                                plugin,
                                obj(
                                        "{'spec':{'serviceAccountName':'loud','automountServiceAccountToken':false,"
                                                + "'containers':[{'name':'c'}]}}"))
                        .path("spec")
                        .has("volumes"));
    }

    @Test
    void theAccountsPullSecretsAreAddedOnlyToAPodWithout() {
        ServiceAccountAdmission plugin =
                plugin(
                        index(
                                account(
                                        "ns",
                                        "default",
                                        "},'imagePullSecrets':[{'name':'reg'}],'x':{")));
        assertEquals(
                obj("{'v':[{'name':'reg'}]}").path("v"),
                admitted(plugin, obj("{'spec':{'containers':[{'name':'c'}]}}"))
                        .at("/spec/imagePullSecrets"));
        assertEquals(
                obj("{'v':[{'name':'own'}]}").path("v"),
                admitted(
                                plugin,
                                obj(
                                        "{'spec':{'imagePullSecrets':[{'name':'own'}],'containers':[{'name':'c'}]}}"))
                        .at("/spec/imagePullSecrets"));
    }

    @Test
    void anEnforcingAccountLimitsTheSecretsAPodReferences() {
        String enforcing =
                ",'annotations':{'kubernetes.io/enforce-mountable-secrets':'true'}},"
                        + "'secrets':[{'name':'ok'}],'imagePullSecrets':[{'name':'pull'}],'x':{";
        ServiceAccountAdmission plugin = plugin(index(account("ns", "default", enforcing)));
        admitted(
                plugin,
                obj(
                        "{'spec':{'containers':[{'name':'c'}],"
                                + "'volumes':[{'name':'v','secret':{'secretName':'ok'}}]}}"));
        assertEquals(
                "pods \"p\" is forbidden: volume with secret.secretName=\"no\" is not allowed"
                        + " because service account default does not reference that secret",
                refused(
                        plugin,
                        obj(
                                "{'spec':{'containers':[{'name':'c'}],"
                                        + "'volumes':[{'name':'v','secret':{'secretName':'no'}}]}}")));
        assertEquals(
                "pods \"p\" is forbidden: init container i with envVar E referencing"
                        + " secret.secretName=\"no\" is not allowed because service account default"
                        + " does not reference that secret",
                refused(
                        plugin,
                        obj(
                                "{'spec':{'initContainers':[{'name':'i','env':[{'name':'E','valueFrom':"
                                        + "{'secretKeyRef':{'name':'no','key':'k'}}}]}],'containers':[{'name':'c'}]}}")));
        assertEquals(
                "pods \"p\" is forbidden: imagePullSecrets[1].name=\"other\" is not allowed because"
                        + " service account default does not reference that imagePullSecret",
                refused(
                        plugin,
                        obj(
                                "{'spec':{'imagePullSecrets':[{'name':'pull'},{'name':'other'}],"
                                        + "'containers':[{'name':'c'}]}}")));
        ServiceAccountAdmission permissive =
                plugin(
                        index(
                                account(
                                        "ns",
                                        "default",
                                        ",'annotations':{'kubernetes.io/enforce-mountable-secrets':'no'}")));
        admitted(
                permissive,
                obj(
                        "{'spec':{'containers':[{'name':'c'}],"
                                + "'volumes':[{'name':'v','secret':{'secretName':'no'}}]}}"));
    }

    @Test
    void theLiveLookUpTriesDefaultTenTimesAndRecordsWhatItFinds() {
        ServiceAccountIndex index = index();
        AtomicInteger gets = new AtomicInteger();
        List<Long> waits = new ArrayList<>();
        ServiceAccountAdmission plugin =
                new ServiceAccountAdmission(
                        index,
                        () -> "abcde",
                        (ns, name) -> {
                            gets.incrementAndGet();
                            return CompletableFuture.completedFuture(Optional.empty());
                        },
                        millis -> {
                            waits.add(millis);
                            return CompletableFuture.completedFuture(null);
                        },
                        () -> 123L);
        ObjectNode pod = obj("{'spec':{'containers':[{'name':'c'}]}}");
        plugin.prepareCreate(PODS, "ns", pod).toCompletableFuture().join();
        assertEquals(10, gets.get());
        assertEquals(9, waits.size());
        assertTrue(waits.stream().allMatch(w -> w == 123L));

        gets.set(0);
        plugin.prepareCreate(
                        PODS,
                        "ns",
                        obj("{'spec':{'serviceAccountName':'other','containers':[{'name':'c'}]}}"))
                .toCompletableFuture()
                .join();
        assertEquals(1, gets.get(), "any other account is looked up once");

        gets.set(0);
        plugin.prepareCreate(
                        PODS,
                        "ns",
                        obj(
                                "{'metadata':{'annotations':{'kubernetes.io/config.mirror':''}},"
                                        + "'spec':{'containers':[]}}"))
                .toCompletableFuture()
                .join();
        plugin.prepareCreate(new GroupResource("", "configmaps"), "ns", pod)
                .toCompletableFuture()
                .join();
        assertEquals(0, gets.get(), "mirror pods and other resources are not looked up");
    }

    @Test
    void anAccountFoundOnTheThirdTryIsAdmittedUntilTheInformerHasIt() {
        Instant[] now = {Instant.parse("2026-11-30T05:00:00Z")};
        Clock clock =
                new Clock() {
                    @Override
                    public ZoneOffset getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(ZoneId zone) {
                        return this;
                    }

                    @Override
                    public Instant instant() {
                        return now[0];
                    }
                };
        ServiceAccountIndex index = new ServiceAccountIndex(clock);
        index.replace(List.of());
        AtomicInteger gets = new AtomicInteger();
        ObjectNode account = account("ns", "default", "");
        ServiceAccountAdmission plugin =
                new ServiceAccountAdmission(
                        index,
                        () -> "abcde",
                        (ns, name) ->
                                CompletableFuture.completedFuture(
                                        gets.incrementAndGet() < 3
                                                ? Optional.empty()
                                                : Optional.of(account)),
                        millis -> CompletableFuture.completedFuture(null),
                        () -> 100L);
        ObjectNode pod = obj("{'spec':{'containers':[{'name':'c'}]}}");
        plugin.prepareCreate(PODS, "ns", pod).toCompletableFuture().join();
        assertEquals(3, gets.get());
        admitted(plugin, pod);

        now[0] = now[0].plus(ServiceAccountIndex.CONFIRMED_FOR).plus(Duration.ofMillis(1));
        refused(plugin, pod);
        index.put(account);
        admitted(plugin, pod);
        index.remove(account);
        refused(plugin, pod);
    }
}
