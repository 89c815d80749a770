package io.kubepekko.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.persistence.jdbc.config.JournalConfig;
import org.apache.pekko.persistence.typed.PersistenceId;
import org.apache.pekko.persistence.typed.javadsl.CommandHandler;
import org.apache.pekko.persistence.typed.javadsl.EventHandler;
import org.apache.pekko.persistence.typed.javadsl.EventSourcedBehavior;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The embedded journal end to end through Pekko Persistence: writes go through the writer (which
 * fills the persistence-id index), and recovery replays through the index and the unindexed rows.
 */
class DirectWriteJournalDaoTest {

    @TempDir Path dir;
    private ActorTestKit kit;

    record Added(int n) implements CborSerializable {}

    record Add(int n, ActorRef<Integer> replyTo) {}

    /** An event carrying {@code pad} bytes besides its number: a large object's change. */
    record Padded(int n, byte[] pad) implements CborSerializable {}

    record AddPadded(int n, int padBytes, ActorRef<Integer> replyTo) {}

    /** Sums what it is given; replies with the sum once the event is persisted. */
    static final class Counter extends EventSourcedBehavior<Object, Object, Integer> {
        Counter(String id) {
            super(PersistenceId.ofUniqueId(id));
        }

        @SuppressWarnings("unchecked")
        static Behavior<Add> create(String id) {
            return (Behavior<Add>) (Behavior<?>) new Counter(id);
        }

        @SuppressWarnings("unchecked")
        static Behavior<AddPadded> padded(String id) {
            return (Behavior<AddPadded>) (Behavior<?>) new Counter(id);
        }

        @Override
        public Integer emptyState() {
            return 0;
        }

        @Override
        public CommandHandler<Object, Object, Integer> commandHandler() {
            return newCommandHandlerBuilder()
                    .forAnyState()
                    .onCommand(
                            Add.class,
                            (sum, c) ->
                                    Effect()
                                            .persist(new Added(c.n()))
                                            .thenRun(s -> c.replyTo().tell(s)))
                    .onCommand(
                            AddPadded.class,
                            (sum, c) ->
                                    Effect()
                                            .persist(new Padded(c.n(), new byte[c.padBytes()]))
                                            .thenRun(s -> c.replyTo().tell(s)))
                    .build();
        }

        @Override
        public EventHandler<Integer, Object> eventHandler() {
            return newEventHandlerBuilder()
                    .forAnyState()
                    .onEvent(Added.class, (sum, e) -> sum + e.n())
                    .onEvent(Padded.class, (sum, e) -> sum + e.n())
                    .build();
        }
    }

    private Config config() {
        return new StorageSettings.Embedded(dir)
                .toConfig()
                .withFallback(
                        ConfigFactory.parseString(
                                "kubepekko.storage.embedded.journal-index-every = 3\n"
                                        + "kubepekko.storage.embedded.replay-page-bytes = 250000\n"
                                        + "pekko.actor.provider = local"))
                .withFallback(ConfigFactory.load())
                .resolve();
    }

    private ActorTestKit start() throws Exception {
        ActorTestKit k = ActorTestKit.create(config());
        EmbeddedSchema.createIfNotExists(k.system())
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        return k;
    }

    @AfterEach
    void stop() {
        if (kit != null) {
            kit.shutdownTestKit();
        }
    }

    private int add(ActorRef<Add> counter, int n) {
        TestProbe<Integer> probe = kit.createTestProbe();
        counter.tell(new Add(n, probe.getRef()));
        return probe.receiveMessage(Duration.ofSeconds(10));
    }

    private long count(String table) throws SQLException {
        try (Connection c =
                        DriverManager.getConnection(
                                config().getString("kubepekko.storage.embedded.url"), "sa", "");
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT COUNT(*) FROM \"" + table + "\"")) {
            r.next();
            return r.getLong(1);
        }
    }

    @Test
    void eventsAreIndexedByTheWriterAndReplayedFromTheIndexAndTheRowsAfterIt() throws Exception {
        kit = start();
        ActorRef<Add> a = kit.spawn(Counter.create("a"));
        ActorRef<Add> b = kit.spawn(Counter.create("b"));
        add(a, 1);
        add(b, 1);
        add(a, 2);
        add(b, 2);
        add(a, 3);
        add(a, 4);
        assertEquals(15, add(a, 5));
        // seven rows: the writer indexed them three at a time, the seventh waits
        assertEquals(7, count("event_journal"));
        assertEquals(6, count("event_journal_by_pid"));

        // a recovers from six indexed rows and the unindexed one, and goes on from its highest
        // number
        kit.stop(a);
        ActorRef<Add> again = kit.spawn(Counter.create("a"));
        assertEquals(25, add(again, 10));

        // a new system on the same files (the stopped writer indexed the rest)
        kit.shutdownTestKit();
        kit = start();
        assertEquals(8, count("event_journal"));
        assertEquals(8, count("event_journal_by_pid"));
        assertEquals(26, add(kit.spawn(Counter.create("a")), 1));
        assertEquals(4, add(kit.spawn(Counter.create("b")), 1));
    }

    private static Set<Thread> writerThreads() {
        Set<Thread> out = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals("kubepekko-journal-writer") && t.isAlive()) {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * The plugin closes its connection pool as the actor system terminates (a termination
     * callback): the writer must be done with its connection (last index entries committed,
     * connection returned) before then. It used to be stopped by a termination callback itself,
     * racing the pool's closing, and closing its connection on the closed pool threw a
     * NullPointerException at server stops. Checked at the last phase of the coordinated shutdown,
     * which comes before any termination callback.
     */
    @Test
    void theWriterIsDoneBeforeTheActorSystemTerminates() throws Exception {
        Set<Thread> others = writerThreads();
        kit = start();
        assertEquals(1, add(kit.spawn(Counter.create("c")), 1));
        Set<Thread> mine = writerThreads();
        mine.removeAll(others);
        assertEquals(1, mine.size(), "this system's writer thread");
        Thread writer = mine.iterator().next();
        CompletableFuture<Boolean> aliveAtTermination = new CompletableFuture<>();
        CoordinatedShutdown.get(kit.system())
                .addTask(
                        CoordinatedShutdown.PhaseActorSystemTerminate(),
                        "observe-writer",
                        () -> {
                            aliveAtTermination.complete(writer.isAlive());
                            return CompletableFuture.completedFuture(Done.getInstance());
                        });
        kit.system().terminate();
        kit.system().getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        Assertions.assertFalse(
                aliveAtTermination.get(10, TimeUnit.SECONDS),
                "the writer still ran when the actor system began to terminate");
        assertEquals(1, count("event_journal_by_pid"), "its last rows indexed on the way out");
    }

    @Test
    void replayReadsPagesOfBoundedBytesAndMissesNoEvent() throws Exception {
        kit = start();
        ActorRef<AddPadded> a = kit.spawn(Counter.padded("big"));
        int sum = 0;
        for (int i = 1; i <= 25; i++) {
            TestProbe<Integer> probe = kit.createTestProbe();
            a.tell(new AddPadded(i, 100_000, probe.getRef()));
            sum = probe.receiveMessage(Duration.ofSeconds(10));
        }
        assertEquals(325, sum);

        // about 100 kB per event and pages of 250 kB: two events a page, whether indexed (the first
        // 24) or not
        PidIndex index = PidIndex.of(new JournalConfig(config().getConfig("jdbc-journal")));
        try (Connection c =
                DriverManager.getConnection(
                        config().getString("kubepekko.storage.embedded.url"), "sa", "")) {
            assertEquals(2, index.pageEnd(c, "big", 1, 25, 400, 250_000));
            assertEquals(25, index.pageEnd(c, "big", 25, 25, 400, 250_000));
            // one event larger than a page is a page of its own
            assertEquals(7, index.pageEnd(c, "big", 7, 25, 400, 1000));
            // the window bounds a page of small events, and a window past the last event ends at
            // its bound
            assertEquals(12, index.pageEnd(c, "big", 10, 25, 3, Long.MAX_VALUE));
            assertEquals(40, index.pageEnd(c, "big", 26, 40, 400, 250_000));
        }

        // the replay pages through all 25 and goes on from the 25th
        kit.stop(a);
        ActorRef<Add> again = kit.spawn(Counter.create("big"));
        assertEquals(326, add(again, 1));
        kit.shutdownTestKit();
        kit = start();
        assertEquals(327, add(kit.spawn(Counter.create("big")), 1));
    }
}
