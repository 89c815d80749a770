package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.watch.WatchEvent.Type;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CacheStateTest {

    private static final Registry REGISTRY = Registry.builtin();
    private static final ResourceType PODS =
            REGISTRY.find(GroupResource.parse("pods")).orElseThrow();
    private static final ResourceType NODES =
            REGISTRY.find(GroupResource.parse("nodes")).orElseThrow();
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final Retention ROOMY = new Retention(Duration.ofMinutes(5), 1_000);

    // ---- fixtures ----

    /** A pod; {@code labels} is {@code k=v,k=v} (empty for none), {@code node} may be null. */
    private static byte[] pod(String namespace, String name, long rv, String labels, String node) {
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", name)
                .put("namespace", namespace)
                .put("resourceVersion", Long.toString(rv));
        if (!labels.isEmpty()) {
            ObjectNode l = meta.putObject("labels");
            for (String kv : labels.split(",")) {
                String[] parts = kv.split("=", 2);
                l.put(parts[0], parts[1]);
            }
        }
        if (node != null) {
            o.putObject("spec").put("nodeName", node);
        }
        return Json.bytes(o);
    }

    private static byte[] pod(String namespace, String name, long rv, String labels) {
        return pod(namespace, name, rv, labels, null);
    }

    private static WatchEvent added(long rv, String namespace, String name, String labels) {
        return new WatchEvent(
                Type.ADDED,
                rv,
                new ObjectKey(namespace, name),
                pod(namespace, name, rv, labels),
                null);
    }

    private static WatchEvent modified(long rv, String namespace, String name, String labels) {
        return new WatchEvent(
                Type.MODIFIED,
                rv,
                new ObjectKey(namespace, name),
                pod(namespace, name, rv, labels),
                null);
    }

    private static WatchEvent deleted(long rv, String namespace, String name, String labels) {
        return new WatchEvent(
                Type.DELETED,
                rv,
                new ObjectKey(namespace, name),
                pod(namespace, name, rv, labels),
                null);
    }

    /** Applies {@code events} one second apart from {@link #T0}. */
    private static CacheState applyAll(CacheState state, WatchEvent... events) {
        CacheState s = state;
        Instant at = T0;
        for (WatchEvent e : events) {
            s = s.apply(e, at);
            at = at.plusSeconds(1);
        }
        return s;
    }

    /** Pods a/p1, a/p2, a-b/p3, b/p4, b/p5 at versions 10..14, labelled by tier and app. */
    private static CacheState fivePods() {
        return applyAll(
                CacheState.empty(PODS, ROOMY, 1),
                added(10, "a", "p1", "app=web,tier=fe"),
                added(11, "a", "p2", "app=db,tier=be"),
                added(12, "a-b", "p3", "app=web,tier=be"),
                added(13, "b", "p4", "app=web"),
                added(14, "b", "p5", ""));
    }

    private static Selection selection(ResourceType type, String labels, String fields) {
        return Selection.parse(type, labels, fields);
    }

    /** The {@code namespace/name} of each item, read back from its bytes. */
    private static List<String> keys(Page page) {
        List<String> out = new ArrayList<>();
        for (byte[] json : page.items()) {
            ObjectNode o = Json.parseTrusted(json);
            String ns = o.path("metadata").path("namespace").asText("");
            String name = o.path("metadata").path("name").asText();
            out.add(ns.isEmpty() ? name : ns + "/" + name);
        }
        return out;
    }

    private static List<String> deliveries(List<Delivery> ds) {
        return ds.stream()
                .map(d -> d.type() + " " + d.object().key() + "@" + d.resourceVersion())
                .toList();
    }

    // ---- list ----

    @Test
    void listsEveryObjectInNamespaceThenNameOrder() {
        Page page = fivePods().snapshotLatest().list(null, Selection.everything(), 0, null);

        assertEquals(List.of("a/p1", "a/p2", "a-b/p3", "b/p4", "b/p5"), keys(page));
        assertNull(page.nextKey());
        assertEquals(0, page.remainingItemCount());
    }

    @Test
    void listReturnsTheStoredBytesWithoutReserializing() {
        WatchEvent e = added(10, "a", "p1", "app=web");
        CacheState state = CacheState.empty(PODS, ROOMY, 1).apply(e, T0);

        assertSame(
                e.object(),
                state.snapshotLatest().list(null, Selection.everything(), 0, null).items().get(0));
    }

    static Stream<Arguments> namespaces() {
        return Stream.of(
                arguments("a", List.of("a/p1", "a/p2")),
                // "a-b" sorts between "a" and "b": its pods must not leak into either.
                arguments("a-b", List.of("a-b/p3")),
                arguments("b", List.of("b/p4", "b/p5")),
                arguments("missing", List.of()));
    }

    @ParameterizedTest(name = "namespace {0}")
    @MethodSource("namespaces")
    void listsOnlyTheRequestedNamespace(String namespace, List<String> expected) {
        assertEquals(
                expected,
                keys(fivePods().snapshotLatest().list(namespace, Selection.everything(), 0, null)));
    }

    static Stream<Arguments> labelSelectors() {
        return Stream.of(
                arguments("equality", "app=web", List.of("a/p1", "a-b/p3", "b/p4")),
                arguments("inequalityIncludesUnlabelled", "app!=web", List.of("a/p2", "b/p5")),
                arguments("setMembership", "tier in (fe,be)", List.of("a/p1", "a/p2", "a-b/p3")),
                arguments("existence", "tier", List.of("a/p1", "a/p2", "a-b/p3")),
                arguments("absence", "!app", List.of("b/p5")),
                arguments("conjunction", "app=web,tier=be", List.of("a-b/p3")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("labelSelectors")
    void filtersByLabelSelector(String name, String selector, List<String> expected) {
        Page page =
                fivePods().snapshotLatest().list(null, selection(PODS, selector, null), 0, null);

        assertEquals(expected, keys(page));
    }

    static Stream<Arguments> fieldSelectors() {
        return Stream.of(
                arguments("name", "metadata.name=p2", List.of("a/p2")),
                arguments("namespace", "metadata.namespace=b", List.of("b/p4", "b/p5")),
                arguments("selectableField", "spec.nodeName=n1", List.of("a/p1", "b/p4")),
                arguments("absentFieldIsEmpty", "spec.nodeName=", List.of("b/p5")),
                arguments("negated", "spec.nodeName!=n1", List.of("a/p2", "a-b/p3", "b/p5")),
                arguments("oldSpellingIsAliased", "spec.host=n2", List.of("a/p2", "a-b/p3")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("fieldSelectors")
    void filtersByFieldSelectorWithoutTheTree(String name, String selector, List<String> expected) {
        CacheState state =
                CacheState.build(
                        PODS,
                        ROOMY,
                        List.of(
                                pod("a", "p1", 5, "", "n1"),
                                pod("a", "p2", 6, "", "n2"),
                                pod("a-b", "p3", 7, "", "n2"),
                                pod("b", "p4", 8, "", "n1"),
                                pod("b", "p5", 9, "", null)),
                        9);

        assertEquals(
                expected,
                keys(state.snapshotLatest().list(null, selection(PODS, null, selector), 0, null)));
    }

    @Test
    void appliesKindQuirksWhenExtractingFieldValues() {
        ObjectNode cordoned = Json.MAPPER.createObjectNode();
        cordoned.putObject("metadata").put("name", "n1").put("resourceVersion", "3");
        cordoned.putObject("spec").put("unschedulable", true);
        ObjectNode plain = Json.MAPPER.createObjectNode();
        plain.putObject("metadata").put("name", "n2").put("resourceVersion", "4");
        CacheState state =
                CacheState.build(NODES, ROOMY, List.of(Json.bytes(cordoned), Json.bytes(plain)), 4);

        // Kubernetes reports an unset spec.unschedulable as "false".
        Page page =
                state.snapshotLatest()
                        .list(null, selection(NODES, null, "spec.unschedulable=false"), 0, null);

        assertEquals(List.of("n2"), keys(page));
    }

    @Test
    void rejectsFieldLabelTheKindDoesNotSupport() {
        ApiException e =
                assertThrows(ApiException.class, () -> selection(PODS, null, "spec.color=red"));

        assertEquals(400, e.status().code());
    }

    // ---- paging ----

    @Test
    void pagesWithNextKeyAndRemainingItemCount() {
        Snapshot snapshot = fivePods().snapshotLatest();

        Page first = snapshot.list(null, Selection.everything(), 2, null);
        Page second = snapshot.list(null, Selection.everything(), 2, first.nextKey());
        Page third = snapshot.list(null, Selection.everything(), 2, second.nextKey());

        assertEquals(List.of("a/p1", "a/p2"), keys(first));
        assertEquals("a/p2", first.nextKey());
        assertEquals(3, first.remainingItemCount());
        assertEquals(List.of("a-b/p3", "b/p4"), keys(second));
        assertEquals(1, second.remainingItemCount());
        assertEquals(List.of("b/p5"), keys(third));
        assertNull(third.nextKey());
        assertEquals(0, third.remainingItemCount());
    }

    @Test
    void lastFullPageHasNoNextKeyWhenNothingFollows() {
        Page page = fivePods().snapshotLatest().list("b", Selection.everything(), 2, null);

        assertEquals(List.of("b/p4", "b/p5"), keys(page));
        assertNull(page.nextKey());
    }

    @Test
    void remainingItemCountCountsOnlyMatchingItems() {
        Snapshot snapshot = fivePods().snapshotLatest();
        Selection web = selection(PODS, "app=web", null);

        Page first = snapshot.list(null, web, 1, null);
        Page second = snapshot.list(null, web, 1, first.nextKey());
        Page third = snapshot.list(null, web, 1, second.nextKey());

        assertEquals(List.of("a/p1"), keys(first));
        assertEquals(2, first.remainingItemCount());
        assertEquals(List.of("a-b/p3"), keys(second));
        assertEquals(1, second.remainingItemCount());
        assertEquals(List.of("b/p4"), keys(third));
        // p5 follows but does not match: no further page.
        assertNull(third.nextKey());
        assertEquals(0, third.remainingItemCount());
    }

    @Test
    void remainingItemCountStaysWithinTheNamespace() {
        Page page = fivePods().snapshotLatest().list("a", Selection.everything(), 1, null);

        assertEquals(1, page.remainingItemCount());
    }

    @Test
    void secondPageTakenAfterLaterWritesReflectsTheFirstPagesSnapshot() {
        CacheState state = fivePods();
        Page first = state.snapshotLatest().list(null, Selection.everything(), 2, null);
        long listedAt = state.resourceVersion();

        CacheState later =
                state.apply(deleted(20, "a-b", "p3", "app=web,tier=be"), T0.plusSeconds(30))
                        .apply(added(21, "a-b", "p0", ""), T0.plusSeconds(31))
                        .apply(modified(22, "b", "p4", "app=api"), T0.plusSeconds(32));
        Snapshot again = later.snapshot(listedAt).orElseThrow();
        Page second = later.list(again, null, Selection.everything(), 2, first.nextKey());

        assertEquals(listedAt, again.resourceVersion());
        assertEquals(List.of("a-b/p3", "b/p4"), keys(second));
        assertEquals(
                "web",
                Json.parseTrusted(second.items().get(1))
                        .path("metadata")
                        .path("labels")
                        .path("app")
                        .asText());
        assertEquals(
                List.of("a-b/p0", "b/p4", "b/p5"),
                keys(
                        later.snapshotLatest()
                                .list(null, Selection.everything(), 0, first.nextKey())));
    }

    @Test
    void continuesAfterAKeyThatWasDeleted() {
        CacheState state =
                fivePods().apply(deleted(20, "a", "p2", "app=db,tier=be"), T0.plusSeconds(10));

        Page page = state.snapshotLatest().list(null, Selection.everything(), 0, "a/p2");

        assertEquals(List.of("a-b/p3", "b/p4", "b/p5"), keys(page));
    }

    @Test
    void clusterScopedNextKeyIsTheName() {
        List<byte[]> nodes = new ArrayList<>();
        for (String name : List.of("n1", "n2", "n3")) {
            ObjectNode n = Json.MAPPER.createObjectNode();
            n.putObject("metadata").put("name", name).put("resourceVersion", "2");
            nodes.add(Json.bytes(n));
        }
        Snapshot snapshot = CacheState.build(NODES, ROOMY, nodes, 2).snapshotLatest();

        Page first = snapshot.list(null, Selection.everything(), 1, null);

        assertEquals("n1", first.nextKey());
        assertEquals(
                List.of("n2", "n3"),
                keys(snapshot.list(null, Selection.everything(), 0, first.nextKey())));
    }

    // ---- versions and snapshots ----

    @Test
    void tracksTheLatestAppliedVersion() {
        CacheState state = CacheState.empty(PODS, ROOMY, 7);
        assertEquals(7, state.resourceVersion());

        assertEquals(14, fivePods().resourceVersion());
    }

    @Test
    void rejectsEventNotNewerThanTheCache() {
        CacheState state = fivePods();

        assertThrows(IllegalStateException.class, () -> state.apply(added(14, "c", "x", ""), T0));
        assertThrows(IllegalStateException.class, () -> state.apply(added(3, "c", "x", ""), T0));
        assertEquals(14, state.resourceVersion());
        assertEquals(5, state.snapshotLatest().size());
    }

    @Test
    void rejectsEventAtOrBelowTheStartVersion() {
        CacheState state = CacheState.empty(PODS, ROOMY, 50);

        assertThrows(IllegalStateException.class, () -> state.apply(added(50, "a", "p", ""), T0));
    }

    static Stream<Arguments> exactVersions() {
        // Writes at 10 (add p1), 20 (add p2), 30 (delete p1), started at 5.
        return Stream.of(
                arguments("startVersion", 5L, Optional.of(List.of())),
                arguments("firstWrite", 10L, Optional.of(List.of("a/p1"))),
                arguments("betweenWritesIsThePreviousState", 15L, Optional.of(List.of("a/p1"))),
                arguments("secondWrite", 20L, Optional.of(List.of("a/p1", "a/p2"))),
                arguments("afterDelete", 30L, Optional.of(List.of("a/p2"))),
                arguments("beforeStartIsExpired", 4L, Optional.empty()),
                arguments("futureIsUnknown", 31L, Optional.empty()));
    }

    @ParameterizedTest(name = "{0}: rv {1}")
    @MethodSource("exactVersions")
    void snapshotsAtExactVersionsInsideTheWindow(
            String name, long rv, Optional<List<String>> expected) {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, ROOMY, 5),
                        added(10, "a", "p1", ""),
                        added(20, "a", "p2", ""),
                        deleted(30, "a", "p1", ""));

        Optional<List<String>> actual =
                state.snapshot(rv).map(s -> keys(s.list(null, Selection.everything(), 0, null)));

        assertEquals(expected, actual);
        state.snapshot(rv).ifPresent(s -> assertEquals(rv, s.resourceVersion()));
    }

    @Test
    void snapshotBeforeTheWindowIsGoneOnceEventsAreDropped() {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, new Retention(Duration.ofMinutes(5), 2), 5),
                        added(10, "a", "p1", ""),
                        added(20, "a", "p2", ""),
                        added(30, "a", "p3", ""));

        assertTrue(state.snapshot(5).isEmpty());
        assertTrue(state.snapshot(9).isEmpty());
        assertEquals(
                List.of("a/p1"),
                keys(state.snapshot(10).orElseThrow().list(null, Selection.everything(), 0, null)));
        assertEquals(
                List.of("a/p1", "a/p2"),
                keys(state.snapshot(25).orElseThrow().list(null, Selection.everything(), 0, null)));
    }

    @Test
    void advanceMovesTheVersionWithoutChangingObjects() {
        CacheState state = fivePods().advance(40, T0.plusSeconds(10));

        assertEquals(40, state.resourceVersion());
        assertEquals(5, state.snapshot(40).orElseThrow().size());
        assertEquals(5, state.snapshot(35).orElseThrow().size());
        assertThrows(IllegalStateException.class, () -> state.advance(39, T0.plusSeconds(11)));
        assertThrows(
                IllegalStateException.class,
                () -> state.apply(added(40, "c", "x", ""), T0.plusSeconds(11)));
    }

    // ---- window ----

    @Test
    void dropsEventsOlderThanTheRetentionOnApply() {
        CacheState state =
                CacheState.empty(PODS, ROOMY, 1)
                        .apply(added(10, "a", "p1", ""), T0)
                        .apply(added(20, "a", "p2", ""), T0.plus(Duration.ofMinutes(2)))
                        .apply(added(30, "a", "p3", ""), T0.plus(Duration.ofMinutes(5)));

        assertEquals(2, state.retainedEvents());
        assertEquals(10, state.oldestVersion());
        assertTrue(state.eventsAfter(1, Selection.everything()).isEmpty());
        assertEquals(
                List.of("ADDED a/p2@20", "ADDED a/p3@30"),
                deliveries(state.eventsAfter(10, Selection.everything()).orElseThrow()));
    }

    @Test
    void keepsEventsYoungerThanTheRetention() {
        CacheState state =
                CacheState.empty(PODS, ROOMY, 1)
                        .apply(added(10, "a", "p1", ""), T0)
                        .expire(T0.plus(Duration.ofMinutes(5)).minusMillis(1));

        assertEquals(1, state.retainedEvents());
        assertEquals(1, state.oldestVersion());
    }

    @Test
    void expireDropsOldEventsWithoutWrites() {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, ROOMY, 1),
                        added(10, "a", "p1", ""),
                        added(20, "a", "p2", ""));

        CacheState expired = state.expire(T0.plus(Duration.ofMinutes(10)));

        assertEquals(0, expired.retainedEvents());
        assertEquals(20, expired.oldestVersion());
        assertEquals(20, expired.resourceVersion());
        assertEquals(2, expired.snapshot(20).orElseThrow().size());
        assertTrue(expired.snapshot(10).isEmpty());
        assertEquals(List.of(), expired.eventsAfter(20, Selection.everything()).orElseThrow());
        assertTrue(expired.eventsAfter(19, Selection.everything()).isEmpty());
    }

    @Test
    void dropsTheOldestEventsBeyondTheMaximumCount() {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, new Retention(Duration.ofMinutes(5), 3), 1),
                        added(10, "a", "p1", ""),
                        added(11, "a", "p2", ""),
                        added(12, "a", "p3", ""),
                        added(13, "a", "p4", ""),
                        added(14, "a", "p5", ""));

        assertEquals(3, state.retainedEvents());
        assertEquals(11, state.oldestVersion());
        assertTrue(state.eventsAfter(10, Selection.everything()).isEmpty());
        assertEquals(
                List.of("ADDED a/p3@12", "ADDED a/p4@13", "ADDED a/p5@14"),
                deliveries(state.eventsAfter(11, Selection.everything()).orElseThrow()));
        assertEquals(5, state.snapshotLatest().size());
    }

    @Test
    void rejectsRetentionThatKeepsNothing() {
        assertThrows(IllegalArgumentException.class, () -> new Retention(Duration.ZERO, 10));
        assertThrows(IllegalArgumentException.class, () -> new Retention(Duration.ofMinutes(1), 0));
    }

    // ---- watch replay ----

    @Test
    void replaysEventsAfterAVersionInOrder() {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, ROOMY, 1),
                        added(10, "a", "p1", ""),
                        modified(20, "a", "p1", "x=y"),
                        deleted(30, "a", "p1", "x=y"));

        assertEquals(
                List.of("ADDED a/p1@10", "MODIFIED a/p1@20", "DELETED a/p1@30"),
                deliveries(state.eventsAfter(1, Selection.everything()).orElseThrow()));
        assertEquals(
                List.of("MODIFIED a/p1@20", "DELETED a/p1@30"),
                deliveries(state.eventsAfter(15, Selection.everything()).orElseThrow()));
        assertEquals(List.of(), state.eventsAfter(30, Selection.everything()).orElseThrow());
    }

    @Test
    void replayAppliesTheWatchersSelection() {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, ROOMY, 1),
                        added(10, "a", "p1", "app=web"),
                        added(11, "a", "p2", "app=db"),
                        modified(12, "a", "p1", "app=db"),
                        modified(13, "a", "p2", "app=web"));

        assertEquals(
                List.of("ADDED a/p1@10", "DELETED a/p1@12", "ADDED a/p2@13"),
                deliveries(state.eventsAfter(1, selection(PODS, "app=web", null)).orElseThrow()));
    }

    @Test
    void deletionDeliversTheFinalState() {
        WatchEvent delete = deleted(20, "a", "p1", "app=web");
        CacheState state =
                applyAll(CacheState.empty(PODS, ROOMY, 1), added(10, "a", "p1", "app=web"), delete);

        Delivery d = state.eventsAfter(10, Selection.everything()).orElseThrow().get(0);

        assertEquals(Type.DELETED, d.type());
        assertSame(delete.object(), d.object().json());
        assertEquals(0, state.snapshotLatest().size());
    }

    @Test
    void latestEventIsTheOneJustApplied() {
        CacheState state = fivePods();

        CachedEvent latest = state.latestEvent().orElseThrow();

        assertEquals(14, latest.resourceVersion());
        assertEquals(new ObjectKey("b", "p5"), latest.key());
    }

    @Test
    void modificationCarriesThePreviousStateFromTheCache() {
        CacheState state =
                applyAll(
                        CacheState.empty(PODS, ROOMY, 1),
                        added(10, "a", "p1", "app=web"),
                        modified(20, "a", "p1", "app=db"));

        CachedEvent latest = state.latestEvent().orElseThrow();

        assertEquals("web", latest.previous().labels().get("app"));
        assertEquals(10, latest.previous().resourceVersion());
        assertEquals("db", latest.object().labels().get("app"));
    }

    static Stream<Arguments> selectionChanges() {
        // before/after: the labels, or null when the object does not exist on that side.
        return Stream.of(
                arguments("createMatching", Type.ADDED, null, "app=web", Optional.of(Type.ADDED)),
                arguments("createNotMatching", Type.ADDED, null, "app=db", Optional.empty()),
                arguments(
                        "stillMatching",
                        Type.MODIFIED,
                        "app=web",
                        "app=web,v=2",
                        Optional.of(Type.MODIFIED)),
                arguments(
                        "labelStopsMatching",
                        Type.MODIFIED,
                        "app=web",
                        "app=db",
                        Optional.of(Type.DELETED)),
                arguments(
                        "labelStartsMatching",
                        Type.MODIFIED,
                        "app=db",
                        "app=web",
                        Optional.of(Type.ADDED)),
                arguments("neverMatching", Type.MODIFIED, "app=db", "app=api", Optional.empty()),
                arguments(
                        "modifiedWithoutKnownPrevious",
                        Type.MODIFIED,
                        null,
                        "app=web",
                        Optional.of(Type.ADDED)),
                arguments(
                        "deleteMatching",
                        Type.DELETED,
                        "app=web",
                        "app=web",
                        Optional.of(Type.DELETED)),
                arguments("deleteNotMatching", Type.DELETED, "app=db", "app=db", Optional.empty()),
                arguments(
                        "deleteWithoutPreviousJudgedOnFinalState",
                        Type.DELETED,
                        null,
                        "app=web",
                        Optional.of(Type.DELETED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("selectionChanges")
    void deliversSelectionChangesAsAddedOrDeleted(
            String name, Type type, String before, String after, Optional<Type> expected) {
        CachedObjectReader reader = new CachedObjectReader(PODS);
        CachedObject previous = before == null ? null : reader.read(pod("a", "p", 10, before));
        CachedObject object = reader.read(pod("a", "p", 20, after));
        CachedEvent event = new CachedEvent(type, 20, object, previous);

        Optional<Delivery> delivery = CacheState.deliver(event, selection(PODS, "app=web", null));

        assertEquals(expected, delivery.map(Delivery::type));
        delivery.ifPresent(
                d -> {
                    if (d.type() == Type.DELETED && type != Type.DELETED) {
                        // It stopped matching: kube sends the previous state at the event's
                        // version.
                        assertEquals(previous.labels(), d.object().labels());
                        assertEquals(20, d.object().resourceVersion());
                        assertTrue(
                                new String(d.object().json(), StandardCharsets.UTF_8)
                                        .contains("\"resourceVersion\":\"20\""));
                    } else {
                        assertSame(object, d.object());
                    }
                });
    }

    @Test
    void everySelectionSeesEveryEventOfMatchingObjects() {
        CachedObjectReader reader = new CachedObjectReader(PODS);
        CachedEvent event =
                new CachedEvent(
                        Type.MODIFIED,
                        20,
                        reader.read(pod("a", "p", 20, "")),
                        reader.read(pod("a", "p", 10, "")));

        assertEquals(
                Optional.of(Type.MODIFIED),
                CacheState.deliver(event, Selection.everything()).map(Delivery::type));
    }

    @Test
    void usesTheEventsPreviousStateWhenTheCacheLacksIt() {
        WatchEvent e =
                new WatchEvent(
                        Type.MODIFIED,
                        20,
                        new ObjectKey("a", "p"),
                        pod("a", "p", 20, "app=db"),
                        pod("a", "p", 10, "app=web"));
        CacheState state = CacheState.empty(PODS, ROOMY, 15).apply(e, T0);

        assertEquals(
                List.of("DELETED a/p@20"),
                deliveries(state.eventsAfter(15, selection(PODS, "app=web", null)).orElseThrow()));
    }

    // ---- rebuild ----

    @Test
    void rebuildStartsFromStoredObjectsWithoutHistory() {
        CacheState state =
                fivePods()
                        .rebuild(List.of(pod("a", "x", 90, "app=web"), pod("", "y", 95, "")), 100);

        assertEquals(100, state.resourceVersion());
        assertEquals(100, state.oldestVersion());
        assertEquals(0, state.retainedEvents());
        assertEquals(
                List.of("y", "a/x"),
                keys(state.snapshotLatest().list(null, Selection.everything(), 0, null)));
        assertEquals(
                90,
                state.snapshotLatest()
                        .get(new ObjectKey("a", "x"))
                        .orElseThrow()
                        .resourceVersion());
        assertTrue(state.eventsAfter(99, Selection.everything()).isEmpty());
        assertEquals(List.of(), state.eventsAfter(100, Selection.everything()).orElseThrow());
        assertThrows(IllegalStateException.class, () -> state.apply(added(100, "a", "z", ""), T0));
    }

    @Test
    void rebuildRejectsAnObjectNewerThanItsVersion() {
        assertThrows(
                IllegalStateException.class,
                () -> CacheState.build(PODS, ROOMY, List.of(pod("a", "x", 101, "")), 100));
    }

    @Test
    void rebuildRejectsTwoObjectsWithOneKey() {
        assertThrows(
                IllegalStateException.class,
                () ->
                        CacheState.build(
                                PODS,
                                ROOMY,
                                List.of(pod("a", "x", 1, ""), pod("a", "x", 2, "")),
                                100));
    }

    // ---- keys ----

    static Stream<Arguments> cursorForms() {
        return Stream.of(
                arguments("namespaced", new ObjectKey("ns", "name"), "ns/name"),
                arguments("clusterScoped", new ObjectKey("", "name"), "name"),
                arguments("nullNamespaceIsClusterScoped", new ObjectKey(null, "name"), "name"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cursorForms")
    void keyRoundTripsThroughItsCursorForm(String name, ObjectKey key, String cursor) {
        assertEquals(cursor, key.toString());
        assertEquals(key, ObjectKey.parse(cursor));
    }

    @Test
    void keysSortByNamespaceThenName() {
        ObjectKey[] keys = {
            new ObjectKey("b", "a"),
            new ObjectKey("a-b", "z"),
            new ObjectKey("a", "z"),
            new ObjectKey("", "z"),
            new ObjectKey("a", "b")
        };

        Arrays.sort(keys);

        assertEquals(
                List.of("z", "a/b", "a/z", "a-b/z", "b/a"),
                Arrays.stream(keys).map(ObjectKey::toString).toList());
    }

    // ---- bytes: what the storage quota counts ----

    @Test
    void bytesAreTheLiveObjectsJsonThroughCreatesGrowingAndShrinkingUpdatesAndDeletes() {
        byte[] a = pod("ns", "a", 1, "");
        CacheState s = CacheState.build(PODS, ROOMY, List.of(a), 1);
        assertEquals(a.length, s.bytes());

        s = s.apply(added(2, "ns", "b", "x=y"), T0);
        long b = pod("ns", "b", 2, "x=y").length;
        assertEquals(a.length + b, s.bytes(), "a create adds its object");

        s = s.apply(modified(3, "ns", "b", "x=y,more=labels,and=more"), T0);
        long grown = pod("ns", "b", 3, "x=y,more=labels,and=more").length;
        assertEquals(a.length + grown, s.bytes(), "a growing update counts the new size, not both");

        s = s.apply(modified(4, "ns", "b", ""), T0);
        long shrunk = pod("ns", "b", 4, "").length;
        assertEquals(a.length + shrunk, s.bytes(), "a shrinking update gives bytes back");

        s = s.apply(deleted(5, "ns", "a", ""), T0);
        assertEquals(shrunk, s.bytes(), "a delete gives its object's bytes back");

        s = s.advance(9, T0.plusSeconds(1000)).expire(T0.plusSeconds(1000));
        assertEquals(shrunk, s.bytes(), "history moving on changes nothing");
    }

    @Test
    void aWarmStartCountsWhatItReadAndCatchingUpOnObjectsItHoldsCountsNothingTwice() {
        byte[] a = pod("ns", "a", 3, "");
        byte[] b = pod("ns", "b", 1, "");
        CacheState s = CacheState.warmStart(PODS, ROOMY, List.of(a, b), 2, 3);
        assertEquals(a.length + b.length, s.bytes());

        // the stream brings a's change at 3, already read
        s = s.catchUp(added(3, "ns", "a", ""), T0);
        assertEquals(a.length + b.length, s.bytes());
        s = s.catchUp(deleted(4, "ns", "b", ""), T0);
        assertEquals(a.length, s.bytes());
        assertEquals(0, CacheState.empty(PODS, ROOMY, 7).bytes());
    }

    /**
     * The window keeps at most maxBytes of objects the live state no longer holds (superseded
     * versions, deleted objects): rewriting large objects drops the oldest events instead of
     * filling the heap.
     */
    @Test
    void theWindowDropsItsOldestEventsOnceTheVersionsTheySupersededExceedMaxBytes() {
        long size =
                pod("ns", "a", 5, "").length; // every version here has a one-digit resourceVersion
        Retention retention = new Retention(Duration.ofMinutes(5), 1_000, 3 * size + size / 2);
        CacheState s = CacheState.build(PODS, retention, List.of(pod("ns", "a", 1, "")), 1);
        for (long rv = 2; rv <= 6; rv++) {
            s = s.apply(modified(rv, "ns", "a", ""), T0);
        }
        assertEquals(
                3,
                s.retainedEvents(),
                "each update supersedes one version: three fit in 3.5 versions");
        assertEquals(3 * size, s.retainedBytes());
        assertEquals(3, s.oldestVersion());
        assertEquals(pod("ns", "a", 6, "").length, s.bytes(), "the live state is whole");

        s = s.apply(deleted(7, "ns", "a", ""), T0);
        assertEquals(2, s.retainedEvents(), "a delete keeps the last version and the final state");
        assertTrue(s.retainedBytes() <= retention.maxBytes());
        assertEquals(0, s.bytes());

        Retention tiny = new Retention(Duration.ofMinutes(5), 1_000, 1);
        CacheState t =
                CacheState.build(PODS, tiny, List.of(pod("ns", "a", 1, "")), 1)
                        .apply(modified(2, "ns", "a", ""), T0);
        assertEquals(1, t.retainedEvents(), "the newest event is always kept");
    }
}
