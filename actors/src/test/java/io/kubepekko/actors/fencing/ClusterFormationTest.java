package io.kubepekko.actors.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

class ClusterFormationTest {
    private static final String A = "pekko://kubepekko@127.0.0.1:1";
    private static final String B = "pekko://kubepekko@127.0.0.1:2";
    private static final String C = "pekko://kubepekko@127.0.0.1:3";
    private static final Duration OBSERVE = Duration.ofSeconds(4);
    private static final Duration TIMEOUT = Duration.ofSeconds(1);

    /** Beats as they are; a pause may make some members beat; the generation and who claims it. */
    private static final class FakeStore implements ClusterFormation.Store {
        final Map<String, Long> beats = new HashMap<>();
        final Map<String, Long> beatingDuringPause = new HashMap<>();
        Optional<Long> generation = Optional.empty();

        /** Another server that wins every claim first (its generation). */
        Optional<Long> rivalClaims = Optional.empty();

        final List<String> claims = new ArrayList<>();

        @Override
        public CompletionStage<Map<String, Long>> beats() {
            return CompletableFuture.completedFuture(new HashMap<>(beats));
        }

        @Override
        public CompletionStage<Optional<Long>> generation() {
            return CompletableFuture.completedFuture(generation);
        }

        @Override
        public CompletionStage<Boolean> claim(Optional<Long> expected, long next, String former) {
            claims.add(former + "@" + next);
            if (rivalClaims.isPresent()) {
                generation = rivalClaims;
                return CompletableFuture.completedFuture(false);
            }
            if (!expected.equals(generation)) {
                return CompletableFuture.completedFuture(false);
            }
            generation = Optional.of(next);
            return CompletableFuture.completedFuture(true);
        }

        void pause(Duration d) {
            beats.putAll(beatingDuringPause);
        }
    }

    private static ClusterFormation.Joined join(
            FakeStore store, String selfSeed, List<String> seeds, List<List<String>> joins)
            throws Exception {
        return ClusterFormation.join(
                store,
                selfSeed + "#1",
                selfSeed,
                seeds,
                OBSERVE,
                TIMEOUT,
                store::pause,
                joins::add);
    }

    @Test
    void onlyAnotherMembersMovingBeatShowsALiveCluster() {
        assertFalse(
                ClusterFormation.othersAlive(Map.of("b#1", 5L), Map.of("b#1", 5L), "a#1"),
                "a beat that stands");
        assertFalse(
                ClusterFormation.othersAlive(Map.of("a#1", 5L), Map.of("a#1", 6L), "a#1"),
                "its own beat");
        assertTrue(ClusterFormation.othersAlive(Map.of("b#1", 5L), Map.of("b#1", 6L), "a#1"));
        assertTrue(
                ClusterFormation.othersAlive(Map.of(), Map.of("c#9", 1L), "a#1"),
                "a member that came up");
        assertFalse(
                ClusterFormation.othersAlive(Map.of("b#1", 5L), Map.of(), "a#1"),
                "a row that expired");
    }

    @Test
    void theFirstSeedRestartedBesideALiveClusterJoinsItThroughTheOthersAndClaimsNothing()
            throws Exception {
        FakeStore store = new FakeStore();
        store.generation = Optional.of(3L);
        store.beats.put(A + "#0", 40L); // its own earlier incarnation, dead
        store.beats.put(B + "#7", 100L);
        store.beatingDuringPause.put(B + "#7", 108L);
        List<List<String>> joins = new ArrayList<>();
        ClusterFormation.Joined joined = join(store, A, List.of(A, B, C), joins);
        assertEquals(
                List.of(List.of(B, C)),
                joins,
                "never itself: Pekko then never forms a cluster of its own");
        assertEquals(new ClusterFormation.Joined(Optional.of(3L), false, List.of(B, C)), joined);
        assertEquals(List.of(), store.claims);
    }

    @Test
    void aSeedThatSeesNoBeatMoveRaisesTheGenerationAndFormsTheCluster() throws Exception {
        FakeStore store = new FakeStore();
        store.generation = Optional.of(3L);
        store.beats.put(B + "#7", 100L); // the whole cluster stopped
        List<List<String>> joins = new ArrayList<>();
        ClusterFormation.Joined joined = join(store, B, List.of(A, B, C), joins);
        assertEquals(List.of(List.of(B, A, C)), joins, "itself first");
        assertEquals(Optional.of(4L), joined.generation());
        assertTrue(joined.formed());
    }

    @Test
    void theFirstStartOfAKeyspaceFormsGenerationOne() throws Exception {
        FakeStore store = new FakeStore();
        List<List<String>> joins = new ArrayList<>();
        ClusterFormation.Joined joined = join(store, A, List.of(A, B, C), joins);
        assertEquals(new ClusterFormation.Joined(Optional.of(1L), true, List.of(A, B, C)), joined);
    }

    @Test
    void ofSeedsStartingTogetherTheOneWhoseClaimLosesJoinsTheWinner() throws Exception {
        FakeStore store = new FakeStore();
        store.rivalClaims = Optional.of(1L);
        List<List<String>> joins = new ArrayList<>();
        ClusterFormation.Joined joined = join(store, C, List.of(A, B, C), joins);
        assertEquals(List.of(List.of(A, B)), joins);
        assertEquals(new ClusterFormation.Joined(Optional.of(1L), false, List.of(A, B)), joined);
    }

    @Test
    void aServerThatIsNoSeedNeverFormsAClusterAsInPekko() throws Exception {
        FakeStore store = new FakeStore();
        List<List<String>> joins = new ArrayList<>();
        ClusterFormation.Joined joined = join(store, C, List.of(A, B), joins);
        assertEquals(List.of(List.of(A, B)), joins);
        assertFalse(joined.formed());
        assertEquals(List.of(), store.claims);
    }
}
