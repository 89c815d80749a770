package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.registry.ResourceType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CacheState#warmStart} and {@link CacheState#catchUp}: building from objects newer than the
 * stream's start.
 */
class WarmStartTest {

    private static final ResourceType CONFIGMAPS =
            Registry.builtin().find("", "v1", "configmaps").orElseThrow();
    private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");
    private static final Retention WINDOW = new Retention(Duration.ofMinutes(5), 10_000);
    private static final ObjectKey A = new ObjectKey("default", "a");
    private static final ObjectKey B = new ObjectKey("default", "b");

    private static byte[] cm(String name, long rv, String value) {
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                        + name
                        + "\",\"namespace\":\"default\",\"resourceVersion\":\""
                        + rv
                        + "\"},\"data\":{\"k\":\""
                        + value
                        + "\"}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String json(CacheState s, ObjectKey key) {
        return new String(s.snapshotLatest().get(key).orElseThrow().json(), StandardCharsets.UTF_8);
    }

    @Test
    void eventsTheObjectsAlreadyReflectOnlyAdvanceTheVersion() {
        CacheState s = CacheState.warmStart(CONFIGMAPS, WINDOW, List.of(cm("a", 12, "new")), 10);
        assertFalse(s.ready(), "an object newer than the start version must be reached first");
        s =
                s.catchUp(
                        new WatchEvent(WatchEvent.Type.MODIFIED, 11, A, cm("a", 11, "old"), null),
                        NOW);
        assertFalse(s.ready());
        assertTrue(json(s, A).contains("\"new\""), "the object never goes back to an older state");
        s =
                s.catchUp(
                        new WatchEvent(WatchEvent.Type.MODIFIED, 12, A, cm("a", 12, "new"), null),
                        NOW);
        assertTrue(s.ready());
        assertEquals(12, s.resourceVersion());
        assertEquals(12, s.oldestVersion(), "history starts where the cache became exact");
        assertTrue(s.snapshot(11).isEmpty());
    }

    @Test
    void laterEventsAreAppliedAndKeptInTheWindow() {
        CacheState s = CacheState.warmStart(CONFIGMAPS, WINDOW, List.of(cm("a", 5, "v5")), 10);
        assertTrue(s.ready(), "nothing newer than the start version was read");
        s =
                s.catchUp(
                        new WatchEvent(
                                WatchEvent.Type.MODIFIED,
                                13,
                                A,
                                cm("a", 13, "v13"),
                                cm("a", 5, "v5")),
                        NOW);
        s = s.catchUp(new WatchEvent(WatchEvent.Type.ADDED, 14, B, cm("b", 14, "b"), null), NOW);
        assertEquals(14, s.resourceVersion());
        assertTrue(json(s, A).contains("v13"));
        assertEquals(2, s.retainedEvents());
        assertTrue(s.snapshot(13).isPresent());
    }

    @Test
    void eventsAtOrBelowTheStartVersionAreIgnored() {
        CacheState s = CacheState.warmStart(CONFIGMAPS, WINDOW, List.of(cm("a", 5, "v5")), 10);
        CacheState after =
                s.catchUp(
                        new WatchEvent(WatchEvent.Type.DELETED, 9, A, cm("a", 9, "v9"), null), NOW);
        assertEquals(10, after.resourceVersion());
        assertTrue(after.snapshotLatest().get(A).isPresent());
    }

    @Test
    void aDeletionAfterTheReadStillRemovesTheObject() {
        CacheState s = CacheState.warmStart(CONFIGMAPS, WINDOW, List.of(cm("a", 11, "x")), 10);
        s = s.catchUp(new WatchEvent(WatchEvent.Type.MODIFIED, 11, A, cm("a", 11, "x"), null), NOW);
        assertTrue(s.ready());
        s =
                s.catchUp(
                        new WatchEvent(
                                WatchEvent.Type.DELETED, 15, A, cm("a", 15, "x"), cm("a", 11, "x")),
                        NOW);
        assertTrue(s.snapshotLatest().get(A).isEmpty());
    }
}
