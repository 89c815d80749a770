package io.kubepekko.actors.controllers;

import static org.awaitility.Awaitility.await;

import io.kubepekko.actors.Backoff;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.serviceaccount.BoundObjectIndex;
import io.kubepekko.api.auth.serviceaccount.BoundObjects;
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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The token authenticator's index follows the objects the informers list and watch. */
class BoundObjectSourceTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50));
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    private static byte[] object(String kind, String name, String uid) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\""
                        + kind
                        + "\",\"metadata\":{\"namespace\":\"ns\",\"name\":\""
                        + name
                        + "\",\"uid\":\""
                        + uid
                        + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static Delivery event(WatchEvent.Type type, String name, long rv, byte[] o) {
        return new Delivery(
                type, rv, new CachedObject(new ObjectKey("ns", name), rv, o, Map.of(), Map.of()));
    }

    /** Lists and watches from per-resource scripts; unscripted resources are empty and quiet. */
    private static final class Scripted implements Informer.ListWatch {
        final Map<GroupResource, List<byte[]>> lists = new ConcurrentHashMap<>();
        final Map<GroupResource, List<StreamEvent>> watches = new ConcurrentHashMap<>();

        @Override
        public CompletionStage<ListChunk> list(ResourceType type) {
            return CompletableFuture.completedFuture(
                    new ListChunk(
                            lists.getOrDefault(type.groupResource(), List.of()), 10, null, null));
        }

        @Override
        public CompletionStage<Source<StreamEvent, NotUsed>> watch(
                ResourceType type, long resourceVersion) {
            List<StreamEvent> events = watches.remove(type.groupResource());
            return CompletableFuture.completedFuture(
                    events == null ? Source.never() : Source.from(events).concat(Source.never()));
        }
    }

    @Test
    void listedAndWatchedObjectsAreFoundByUidUntilDeleted() {
        Scripted source = new Scripted();
        source.lists.put(SERVICE_ACCOUNTS, List.of(object("ServiceAccount", "builder", "sa-1")));
        source.lists.put(PODS, List.of(object("Pod", "web", "pod-1")));
        source.watches.put(
                PODS,
                List.of(
                        event(WatchEvent.Type.DELETED, "web", 11, object("Pod", "web", "pod-1")),
                        event(WatchEvent.Type.ADDED, "api", 12, object("Pod", "api", "pod-2"))));
        BoundObjectIndex index = new BoundObjectIndex();

        kit.spawn(BoundObjectSource.create(source, Registry.builtin(), index, FAST));

        await().atMost(DEADLINE)
                .until(
                        () ->
                                index.find(BoundObjects.Kind.POD, "ns", "api")
                                        .equals(Optional.of(BoundObjects.Live.of("pod-2"))));
        await().atMost(DEADLINE)
                .until(() -> index.find(BoundObjects.Kind.POD, "ns", "web").isEmpty());
        await().atMost(DEADLINE).until(() -> index.readiness().isEmpty());
        await().atMost(DEADLINE)
                .until(
                        () ->
                                index.find(BoundObjects.Kind.SERVICE_ACCOUNT, "ns", "builder")
                                        .equals(Optional.of(BoundObjects.Live.of("sa-1"))));
    }
}
