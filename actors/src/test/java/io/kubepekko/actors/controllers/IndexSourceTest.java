package io.kubepekko.actors.controllers;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.actors.Backoff;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.limitranger.LimitRangeIndex;
import io.kubepekko.api.admission.limitranger.LimitRanger;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
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

/** LimitRanger's index follows the LimitRanges the informer lists and watches. */
class IndexSourceTest {

    private static final ActorTestKit kit = ActorTestKit.create();
    private static final Backoff FAST = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50));
    private static final Duration DEADLINE = Duration.ofSeconds(10);

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    /** A LimitRange {@code name} in namespace {@code ns} allowing at most {@code maxCpu}. */
    private static byte[] limitRange(String name, String maxCpu) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"LimitRange\",\"metadata\":{\"namespace\":\"ns\","
                        + "\"name\":\""
                        + name
                        + "\"},\"spec\":{\"limits\":[{\"type\":\"Container\",\"max\":{\"cpu\":\""
                        + maxCpu
                        + "\"}}]}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static Delivery event(WatchEvent.Type type, String name, long rv, byte[] o) {
        return new Delivery(
                type, rv, new CachedObject(new ObjectKey("ns", name), rv, o, Map.of(), Map.of()));
    }

    /** Lists and watches LimitRanges from a script; other resources are empty and quiet. */
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

    /** What LimitRanger answers a pod create asking for 2 cpus: its 403 message, or "". */
    private static String verdict(LimitRanger ranger) throws Exception {
        ObjectNode pod =
                (ObjectNode)
                        Json.MAPPER.readTree(
                                "{\"metadata\":{\"name\":\"p\"},\"spec\":{\"containers\":[{\"name\":\"c\","
                                        + "\"resources\":{\"limits\":{\"cpu\":\"2\"},"
                                        + "\"requests\":{\"cpu\":\"2\"}}}]}}");
        return ranger.refusal(
                        new AdmissionRequest(
                                Operation.CREATE,
                                UserInfo.of("eve", List.of()),
                                new GroupResource("", "pods"),
                                "",
                                "ns",
                                "p",
                                pod,
                                null,
                                false))
                .map(s -> s.message())
                .orElse("");
    }

    private static final GroupResource LIMIT_RANGES = new GroupResource("", "limitranges");

    @Test
    void listedAndWatchedLimitRangesApplyUntilDeleted() {
        Scripted source = new Scripted();
        source.lists.put(LIMIT_RANGES, List.of(limitRange("a", "500m")));
        source.watches.put(
                LIMIT_RANGES,
                List.of(
                        event(WatchEvent.Type.ADDED, "b", 11, limitRange("b", "1")),
                        event(WatchEvent.Type.DELETED, "a", 12, limitRange("a", "500m"))));
        LimitRangeIndex index = new LimitRangeIndex();
        LimitRanger ranger = new LimitRanger(index);

        kit.spawn(IndexSource.create(source, Registry.builtin(), LIMIT_RANGES, index, FAST));

        await().atMost(DEADLINE).until(() -> index.readiness().isEmpty());
        // "a" comes first by name: "b" answers only once "a" is gone
        await().atMost(DEADLINE)
                .until(
                        () ->
                                verdict(ranger)
                                        .equals(
                                                "pods \"p\" is forbidden: maximum cpu usage per"
                                                        + " Container is 1, but limit is 2"));
    }

    @Test
    void aResourceNotServedCountsAsListedEmpty() {
        InformedObjects widgets = new InformedObjects("widgets");
        kit.spawn(
                IndexSource.create(
                        new Scripted(),
                        Registry.builtin(),
                        new GroupResource("example.com", "widgets"),
                        widgets,
                        FAST));
        await().atMost(DEADLINE).until(() -> widgets.readiness().isEmpty());
        assertTrue(widgets.all().isEmpty());
    }
}
