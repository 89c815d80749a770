package io.kubepekko.actors.authorization;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.controllers.Informer;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.watch.CachedObject;
import io.kubepekko.api.watch.Delivery;
import io.kubepekko.api.watch.ListChunk;
import io.kubepekko.api.watch.ObjectKey;
import io.kubepekko.api.watch.StreamEvent;
import io.kubepekko.api.watch.WatchEvent;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The policy source against scripted lists and watches of the four RBAC kinds. */
class RbacPolicySourceTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50));

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    /** Lists are empty, except as scripted; each kind's watch is its scripted source. */
    private static final class Scripted implements Informer.ListWatch {
        final Map<String, CompletableFuture<ListChunk>> lists = new ConcurrentHashMap<>();
        final Map<String, Source<StreamEvent, NotUsed>> watches = new ConcurrentHashMap<>();

        @Override
        public CompletionStage<ListChunk> list(ResourceType type) {
            return lists.getOrDefault(
                    type.groupResource().resource(),
                    CompletableFuture.completedFuture(new ListChunk(List.of(), 1, null, null)));
        }

        @Override
        public CompletionStage<Source<StreamEvent, NotUsed>> watch(
                ResourceType type, long resourceVersion) {
            return CompletableFuture.completedFuture(
                    watches.getOrDefault(type.groupResource().resource(), Source.never()));
        }
    }

    private static byte[] roleBinding(String ns, String name, String user) {
        return ("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\","
                        + "\"metadata\":{\"name\":\""
                        + name
                        + "\",\"namespace\":\""
                        + ns
                        + "\"},\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\","
                        + "\"kind\":\"Role\",\"name\":\"reader\"},\"subjects\":[{\"kind\":\"User\","
                        + "\"apiGroup\":\"rbac.authorization.k8s.io\",\"name\":\""
                        + user
                        + "\"}]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static final byte[] READER =
            ("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
                            + "\"metadata\":{\"name\":\"reader\",\"namespace\":\"ns\"},"
                            + "\"rules\":[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],"
                            + "\"verbs\":[\"get\"]}]}")
                    .getBytes(StandardCharsets.UTF_8);

    private static AuthorizationAttributes getPod(String user) {
        return AuthorizationAttributes.resource(
                UserInfo.of(user, List.of()), "get", "ns", "", "v1", "pods", "", "p");
    }

    @Test
    void aThousandBindingsArrivingAtOnceCostAHandfulOfRebuilds() {
        Scripted source = new Scripted();
        source.lists.put(
                "roles",
                CompletableFuture.completedFuture(
                        new ListChunk(List.<byte[]>of(READER), 1, null, null)));
        List<StreamEvent> burst = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            byte[] json = roleBinding("ns", "b" + i, "user-" + i);
            burst.add(
                    new Delivery(
                            WatchEvent.Type.ADDED,
                            2 + i,
                            new CachedObject(
                                    new ObjectKey("ns", "b" + i),
                                    2 + i,
                                    json,
                                    Map.of(),
                                    Map.of())));
        }
        source.watches.put("rolebindings", Source.from(burst).concat(Source.never()));

        RbacPolicySource policy =
                RbacPolicySource.start(
                        kit.system(),
                        source,
                        Registry.builtin(),
                        new RbacPolicySource.Settings(Duration.ofMillis(200), FAST));
        RbacAuthorizer rbac = new RbacAuthorizer(policy.policy());

        await().atMost(Duration.ofSeconds(30))
                .until(() -> rbac.authorize(getPod("user-999")).allowed());
        assertTrue(policy.synced());
        assertTrue(rbac.authorize(getPod("user-0")).allowed());
        assertFalse(rbac.authorize(getPod("nobody")).allowed());
        // One build at the first sync, then one per rebuild delay while the burst arrives: far
        // fewer than one per change.
        assertTrue(policy.rebuilds() < 100, "rebuilt " + policy.rebuilds() + " times");
        policy.close();
    }

    @Test
    void theSourceIsNotSyncedUntilAllFourKindsHaveBeenListed() {
        Scripted source = new Scripted();
        CompletableFuture<ListChunk> clusterRoleBindings = new CompletableFuture<>();
        source.lists.put("clusterrolebindings", clusterRoleBindings);
        RbacPolicySource policy =
                RbacPolicySource.start(
                        kit.system(),
                        source,
                        Registry.builtin(),
                        new RbacPolicySource.Settings(Duration.ofMillis(20), FAST));
        assertFalse(policy.synced());
        assertEquals("RBAC roles and bindings not synced yet", policy.readiness().orElseThrow());

        clusterRoleBindings.complete(new ListChunk(List.of(), 1, null, null));

        await().atMost(Duration.ofSeconds(30)).until(policy::synced);
        assertTrue(policy.readiness().isEmpty());
        policy.close();
    }
}
