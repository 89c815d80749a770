package io.kubepekko.agent.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubepekko.agent.worker.PodWorker;
import java.util.Optional;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pod manager's bookkeeping: names, finished uids and the rules read from them. */
class PodTableTest {

    private static final ObjectMapper MAPPER = new ObjectMapper(new YAMLFactory());
    private static ActorTestKit kit;

    /** Stands for a live worker: the table only asks whether there is one. */
    private static ActorRef<PodWorker.Command> worker;

    @BeforeAll
    static void start() {
        kit = ActorTestKit.create();
        worker = kit.<PodWorker.Command>createTestProbe().ref();
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    private static PodEntry entry(String uid, String name, boolean isStatic) {
        try {
            ObjectNode pod =
                    (ObjectNode)
                            MAPPER.readTree(
                                    "{metadata: {namespace: default, name: "
                                            + name
                                            + ", uid: "
                                            + uid
                                            + "}, status: {phase: Running}}");
            return new PodEntry(uid, pod, isStatic);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void claimingANameAnswersTheOtherUidThatHeldIt() {
        PodTable t = new PodTable();
        PodEntry a = entry("a", "web", false);
        t.add(a);
        assertEquals(Optional.empty(), t.claimName("default/web", "a"));
        assertEquals(Optional.empty(), t.claimName("default/web", "a"), "the same uid again");
        PodEntry b = entry("b", "web", false);
        t.add(b);
        assertSame(a, t.claimName("default/web", "b").orElseThrow());
        t.releaseName(a);
        assertSame(
                b,
                t.holder("default/web").orElseThrow(),
                "a release by the old uid keeps the new holder");
    }

    @Test
    void aRemovedApiPodIsNotRunAgainUntilTheApiSaysItIsGone() {
        PodTable t = new PodTable();
        PodEntry a = entry("a", "web", false);
        t.add(a);
        t.remove(a, true);
        assertFalse(t.contains("a"));
        assertTrue(t.finished("a"));
        t.gone("a");
        assertFalse(t.finished("a"));
        t.remove(entry("b", "db", false), true);
        t.onlyPresent(Set.of());
        assertFalse(t.finished("b"), "a relist without it");
    }

    @Test
    void admissionCountsOnlyPodsThatHoldAPlace() {
        PodTable t = new PodTable();
        PodEntry newcomer = entry("n", "new", false);
        PodEntry running = entry("r", "run", false);
        PodEntry rejected = entry("x", "rej", false);
        rejected.rejected = true;
        PodEntry stopping = entry("s", "stop", false);
        stopping.terminating = true;
        stopping.worker = worker;
        PodEntry stopped = entry("d", "done", false);
        stopped.terminating = true;
        for (PodEntry e : new PodEntry[] {newcomer, running, rejected, stopping, stopped}) {
            t.add(e);
        }
        assertEquals(2, t.admittedBesides(newcomer), "the running and the stopping one");
    }

    @Test
    void aMirrorShowsTheRunningStaticPodElseTheOneStillStopping() {
        PodTable t = new PodTable();
        PodEntry old = entry("h1", "etcd-n", true);
        old.worker = worker;
        t.add(old);
        t.claimName("default/etcd-n", "h1");
        assertSame(old.pod, t.mirrored("default/etcd-n").orElseThrow());

        old.terminating = true; // its manifest changed: h2 waits for it
        PodEntry next = entry("h2", "etcd-n", true);
        t.add(next);
        t.claimName("default/etcd-n", "h2");
        assertTrue(t.anotherStaticStopping(next));
        assertSame(
                old.pod,
                t.mirrored("default/etcd-n").orElseThrow(),
                "kept while the old one stops");

        t.remove(old, false);
        assertFalse(t.anotherStaticStopping(next));
        assertEquals(
                Optional.empty(), t.mirrored("default/etcd-n"), "the new one has not started yet");
        next.worker = worker;
        assertSame(next.pod, t.mirrored("default/etcd-n").orElseThrow());
    }
}
