package io.kubepekko.actors.controllers;

import static org.awaitility.Awaitility.await;

import io.kubepekko.actors.Backoff;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.node.GraphObject;
import io.kubepekko.api.auth.node.NodeGraph;
import io.kubepekko.api.auth.node.ObjectRef;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.NotUsed;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.stream.javadsl.Source;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The node graph follows the pods and volumes the informers list and watch. */
class NodeGraphSourceTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50));
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    private static byte[] pod(String name, String node, String secret) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"namespace\":\"ns\","
                        + "\"name\":\""
                        + name
                        + "\"},\"spec\":{\"nodeName\":\""
                        + node
                        + "\",\"volumes\":[{\"name\":\"v\",\"persistentVolumeClaim\":"
                        + "{\"claimName\":\"data\"}},{\"name\":\"s\",\"secret\":{\"secretName\":\""
                        + secret
                        + "\"}}]}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] pv(String name, String claim) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\""
                        + name
                        + "\"},\"spec\":{\"claimRef\":{\"namespace\":\"ns\",\"name\":\""
                        + claim
                        + "\"}}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static Delivery event(WatchEvent.Type type, String ns, String name, long rv, byte[] o) {
        return new Delivery(
                type, rv, new CachedObject(new ObjectKey(ns, name), rv, o, Map.of(), Map.of()));
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

    private static boolean reaches(NodeGraph g, String node, GraphObject type, String name) {
        String ns = type == GraphObject.PERSISTENT_VOLUME ? "" : "ns";
        return g.reaches(node, new ObjectRef(type, ns, name));
    }

    @Test
    void listedAndWatchedPodsAndVolumesShapeTheGraph() {
        Scripted source = new Scripted();
        source.lists.put(NodeGraph.PODS, List.of(pod("web", "n1", "cert")));
        source.lists.put(NodeGraph.PERSISTENT_VOLUMES, List.of(pv("pv-1", "data")));
        source.watches.put(
                NodeGraph.PODS,
                List.of(
                        event(WatchEvent.Type.DELETED, "ns", "web", 11, pod("web", "n1", "cert")),
                        event(WatchEvent.Type.ADDED, "ns", "api", 12, pod("api", "n2", "key"))));
        NodeGraph graph = new NodeGraph();

        kit.spawn(NodeGraphSource.create(source, Registry.builtin(), graph, FAST));

        // after the watch: web (n1) is gone, api (n2) came, the volume follows the claim to n2
        await().atMost(DEADLINE).until(() -> reaches(graph, "n2", GraphObject.SECRET, "key"));
        await().atMost(DEADLINE)
                .until(() -> reaches(graph, "n2", GraphObject.PERSISTENT_VOLUME, "pv-1"));
        await().atMost(DEADLINE).until(() -> !reaches(graph, "n1", GraphObject.SECRET, "cert"));
        await().atMost(DEADLINE)
                .until(() -> !reaches(graph, "n1", GraphObject.PERSISTENT_VOLUME, "pv-1"));
    }
}
