package io.kubepekko.http;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The garbage collector against a running server: each propagation policy, chains, several owners,
 * dangling references and Kubernetes' namespace rules for owner references. Policies are driven by
 * the finalizers a Foreground or Orphan delete adds (set at creation here), so the tests hold
 * whether or not DELETE's propagationPolicy adds them.
 */
class GarbageCollectionIT {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final String CLUSTER_ROLES = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
    private static final AtomicInteger names = new AtomicInteger();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    private static String unique(String prefix) {
        return prefix + "-" + names.incrementAndGet();
    }

    private static String namespace() {
        String ns = unique("gc");
        api.create(
                "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + ns
                        + "\"}}");
        return ns;
    }

    private static String path(String ns, String resource) {
        return "/api/v1/namespaces/" + ns + "/" + resource;
    }

    /** An owner reference to {@code owner}. */
    private static ObjectNode ref(ObjectNode owner, boolean block) {
        ObjectNode r = Json.MAPPER.createObjectNode();
        r.put("apiVersion", owner.path("apiVersion").asText())
                .put("kind", owner.path("kind").asText())
                .put("name", owner.at("/metadata/name").asText())
                .put("uid", owner.at("/metadata/uid").asText());
        if (block) {
            r.put("blockOwnerDeletion", true);
        }
        return r;
    }

    private static ObjectNode ghost(String apiVersion, String kind, String name, String uid) {
        ObjectNode r = Json.MAPPER.createObjectNode();
        return r.put("apiVersion", apiVersion).put("kind", kind).put("name", name).put("uid", uid);
    }

    private static ObjectNode object(
            String apiVersion,
            String kind,
            String name,
            List<ObjectNode> owners,
            String... finalizers) {
        ObjectNode obj =
                Json.MAPPER.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
        ObjectNode meta = obj.putObject("metadata").put("name", name);
        if (!owners.isEmpty()) {
            meta.putArray("ownerReferences").addAll(owners);
        }
        if (finalizers.length > 0) {
            ArrayNode fs = meta.putArray("finalizers");
            for (String f : finalizers) {
                fs.add(f);
            }
        }
        return obj;
    }

    private static ObjectNode configMap(
            String ns, String name, List<ObjectNode> owners, String... finalizers) {
        return api.create(
                path(ns, "configmaps"),
                Json.string(object("v1", "ConfigMap", name, owners, finalizers)));
    }

    private static ObjectNode secret(
            String ns, String name, List<ObjectNode> owners, String... finalizers) {
        return api.create(
                path(ns, "secrets"), Json.string(object("v1", "Secret", name, owners, finalizers)));
    }

    private static ObjectNode clusterRole(String name, List<ObjectNode> owners) {
        return api.create(
                CLUSTER_ROLES,
                Json.string(object("rbac.authorization.k8s.io/v1", "ClusterRole", name, owners)));
    }

    private static String self(ObjectNode obj) {
        String ns = obj.at("/metadata/namespace").asText("");
        String name = obj.at("/metadata/name").asText();
        return switch (obj.path("kind").asText()) {
            case "ConfigMap" -> path(ns, "configmaps") + "/" + name;
            case "Secret" -> path(ns, "secrets") + "/" + name;
            case "ClusterRole" -> CLUSTER_ROLES + "/" + name;
            default -> throw new IllegalArgumentException(obj.path("kind").asText());
        };
    }

    private static void awaitGone(ObjectNode obj) {
        await().atMost(DEADLINE).until(() -> api.get(self(obj)).code() == 404);
    }

    private static ObjectNode current(ObjectNode obj) {
        return api.get(self(obj)).assertCode(200).json();
    }

    private static boolean exists(ObjectNode obj) {
        return api.get(self(obj)).code() == 200;
    }

    private static List<String> ownerUids(ObjectNode obj) {
        List<String> uids = new ArrayList<>();
        obj.at("/metadata/ownerReferences").forEach(r -> uids.add(r.path("uid").asText()));
        return uids;
    }

    private static String uid(ObjectNode obj) {
        return obj.at("/metadata/uid").asText();
    }

    private static void removeFinalizers(ObjectNode obj) {
        api.patch(self(obj), "application/merge-patch+json", "{\"metadata\":{\"finalizers\":null}}")
                .assertCode(200);
    }

    @Test
    void backgroundDeletionCollectsDependentsOfEveryKindAfterTheOwnerIsGone() {
        String ns = namespace();
        ObjectNode owner = configMap(ns, "owner", List.of());
        ObjectNode cm = configMap(ns, "dep-cm", List.of(ref(owner, false)));
        ObjectNode sec = secret(ns, "dep-secret", List.of(ref(owner, true)));
        ObjectNode unrelated = configMap(ns, "unrelated", List.of());

        api.delete(self(owner)).assertCode(200);

        awaitGone(cm);
        awaitGone(sec);
        assertTrue(exists(unrelated));
    }

    @Test
    void aDependentWhoseOwnerNeverExistedIsCollected() {
        String ns = namespace();
        ObjectNode orphan =
                configMap(ns, "dep", List.of(ghost("v1", "ConfigMap", "nobody", "no-such-uid")));
        awaitGone(orphan);
    }

    @Test
    void anOwnerWithTheSameNameButAnotherUidIsTreatedAsGone() {
        String ns = namespace();
        ObjectNode owner = configMap(ns, "owner", List.of());
        ObjectNode dep =
                configMap(ns, "dep", List.of(ghost("v1", "ConfigMap", "owner", "the-old-uid")));
        awaitGone(dep);
        assertTrue(exists(owner));
    }

    @Test
    void withAnotherOwnerLeftOnlyTheDanglingReferenceIsRemoved() {
        String ns = namespace();
        ObjectNode first = configMap(ns, "first", List.of());
        ObjectNode second = secret(ns, "second", List.of());
        ObjectNode dep =
                configMap(
                        ns,
                        "dep",
                        List.of(
                                ref(first, false),
                                ref(second, false),
                                ghost("v1", "ConfigMap", "never", "never-uid")));

        await().atMost(DEADLINE).until(() -> ownerUids(current(dep)).size() == 2);
        assertEquals(
                List.of(uid(first), uid(second)),
                ownerUids(current(dep)),
                "the ghost reference went");

        api.delete(self(first)).assertCode(200);
        await().atMost(DEADLINE).until(() -> ownerUids(current(dep)).equals(List.of(uid(second))));

        api.delete(self(second)).assertCode(200);
        awaitGone(dep);
    }

    @Test
    void foregroundDeletionWaitsForBlockingDependentsOnly() {
        String ns = namespace();
        ObjectNode owner = configMap(ns, "owner", List.of(), "foregroundDeletion");
        ObjectNode blocking =
                configMap(ns, "blocking", List.of(ref(owner, true)), "example.com/hold");
        ObjectNode plain = configMap(ns, "plain", List.of(ref(owner, false)));

        api.delete(self(owner)).assertCode(200);

        // Every dependent is deleted; the blocking one stays (its own finalizer) and holds the
        // owner.
        awaitGone(plain);
        await().atMost(DEADLINE)
                .until(() -> current(blocking).at("/metadata/deletionTimestamp").isTextual());
        ObjectNode waiting = current(owner);
        assertTrue(waiting.at("/metadata/deletionTimestamp").isTextual());
        assertEquals("foregroundDeletion", waiting.at("/metadata/finalizers/0").asText());

        removeFinalizers(blocking);
        awaitGone(blocking);
        awaitGone(owner);
    }

    @Test
    void foregroundDeletionDoesNotWaitForNonBlockingDependents() {
        String ns = namespace();
        ObjectNode owner = configMap(ns, "owner", List.of(), "foregroundDeletion");
        ObjectNode held = configMap(ns, "held", List.of(ref(owner, false)), "example.com/hold");

        api.delete(self(owner)).assertCode(200);

        awaitGone(owner);
        // Deleted too (before or after its owner went), and held by its own finalizer.
        await().atMost(DEADLINE)
                .until(() -> current(held).at("/metadata/deletionTimestamp").isTextual());
        removeFinalizers(held);
        awaitGone(held);
    }

    @Test
    void orphanDeletionReleasesDependentsAndThenTheOwnerGoes() {
        String ns = namespace();
        ObjectNode owner = configMap(ns, "owner", List.of(), "orphan");
        ObjectNode other = secret(ns, "other-owner", List.of());
        ObjectNode only = configMap(ns, "only", List.of(ref(owner, true)));
        ObjectNode shared = secret(ns, "shared", List.of(ref(owner, false), ref(other, false)));

        api.delete(self(owner)).assertCode(200);

        awaitGone(owner);
        assertEquals(List.of(), ownerUids(current(only)));
        assertFalse(current(only).at("/metadata").has("ownerReferences"));
        assertEquals(List.of(uid(other)), ownerUids(current(shared)));
    }

    @Test
    void backgroundDeletionFollowsAChain() {
        String ns = namespace();
        ObjectNode a = configMap(ns, "a", List.of());
        ObjectNode b = secret(ns, "b", List.of(ref(a, false)));
        ObjectNode c = configMap(ns, "c", List.of(ref(b, false)));

        api.delete(self(a)).assertCode(200);

        awaitGone(b);
        awaitGone(c);
    }

    @Test
    void foregroundDeletionPropagatesForegroundDownAChain() {
        String ns = namespace();
        ObjectNode a = configMap(ns, "a", List.of(), "foregroundDeletion");
        // b is deleted by the collector with propagationPolicy=Foreground; the finalizer that
        // policy
        // adds is set up front so that b waits for c whether or not DELETE adds it.
        ObjectNode b = secret(ns, "b", List.of(ref(a, true)), "foregroundDeletion");
        ObjectNode c = configMap(ns, "c", List.of(ref(b, true)), "example.com/hold");

        api.delete(self(a)).assertCode(200);

        await().atMost(DEADLINE)
                .until(() -> current(c).at("/metadata/deletionTimestamp").isTextual());
        assertTrue(current(b).at("/metadata/deletionTimestamp").isTextual(), "b waits for c");
        assertTrue(current(a).at("/metadata/deletionTimestamp").isTextual(), "a waits for b");

        removeFinalizers(c);
        awaitGone(c);
        awaitGone(b);
        awaitGone(a);
    }

    @Test
    void orphanDeletionReleasesOnlyTheFirstLinkOfAChain() {
        String ns = namespace();
        ObjectNode a = configMap(ns, "a", List.of(), "orphan");
        ObjectNode b = secret(ns, "b", List.of(ref(a, false)));
        ObjectNode c = configMap(ns, "c", List.of(ref(b, false)));

        api.delete(self(a)).assertCode(200);

        awaitGone(a);
        assertEquals(List.of(), ownerUids(current(b)));
        assertEquals(List.of(uid(b)), ownerUids(current(c)));
    }

    @Test
    void aNamespacedOwnerIsLookedUpInTheDependentsNamespaceOnly() {
        String home = namespace();
        String elsewhere = namespace();
        ObjectNode owner = configMap(home, "owner", List.of());
        ObjectNode local = configMap(home, "local", List.of(ref(owner, false)));
        ObjectNode crossNamespace = configMap(elsewhere, "cross", List.of(ref(owner, false)));

        awaitGone(crossNamespace);
        assertTrue(exists(owner));
        assertTrue(exists(local));
    }

    @Test
    void aNamespacedDependentOfAClusterScopedOwnerIsCollectedWhenItGoes() {
        String ns = namespace();
        ObjectNode owner = clusterRole(unique("owner-role"), List.of());
        ObjectNode dep = configMap(ns, "dep", List.of(ref(owner, false)));

        api.delete(self(owner)).assertCode(200);
        awaitGone(dep);
    }

    @Test
    void aClusterScopedDependentOfANamespacedOwnerIsNeverCollected() {
        String ns = namespace();
        ObjectNode owner = configMap(ns, "owner", List.of());
        ObjectNode invalid =
                clusterRole(
                        unique("invalid"),
                        List.of(ref(owner, false), ghost("v1", "ConfigMap", "ghost", "ghost-uid")));
        // A later object of the same kind with a resolvable dangling owner: once it is collected,
        // the
        // collector has seen (and passed over) the invalid one.
        ObjectNode sentinel =
                clusterRole(
                        unique("sentinel"),
                        List.of(ghost("v1", "Namespace", "ghost", "ghost-uid")));

        api.delete(self(owner)).assertCode(200);
        awaitGone(sentinel);
        JsonNode refs = current(invalid).at("/metadata/ownerReferences");
        assertEquals(2, refs.size(), "neither deleted nor patched");
    }
}
