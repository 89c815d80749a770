package io.kubepekko.actors;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.persistence.testkit.JournalOperation;
import org.apache.pekko.persistence.testkit.ProcessingPolicy;
import org.apache.pekko.persistence.testkit.ProcessingResult;
import org.apache.pekko.persistence.testkit.ProcessingSuccess$;
import org.apache.pekko.persistence.testkit.ReadEvents;
import org.apache.pekko.persistence.testkit.javadsl.PersistenceTestKit;

/**
 * Counts the events the in-memory journal hands out for one persistence id, letting every operation
 * succeed: after a restart, the number of events a recovery replayed — the tail after the snapshot
 * when one was used, everything otherwise.
 */
public final class ReplayedEvents implements ProcessingPolicy<JournalOperation> {

    private final String persistenceId;
    private final AtomicInteger count = new AtomicInteger();

    private ReplayedEvents(String persistenceId) {
        this.persistenceId = persistenceId;
    }

    /**
     * Installs a recorder as the journal's policy; the test kit's next {@code resetPolicy} removes
     * it.
     */
    public static ReplayedEvents recordOn(PersistenceTestKit journal, String persistenceId) {
        ReplayedEvents recorder = new ReplayedEvents(persistenceId);
        journal.withPolicy(recorder);
        return recorder;
    }

    public int count() {
        return count.get();
    }

    @Override
    public ProcessingResult tryProcess(String persistenceId, JournalOperation operation) {
        if (this.persistenceId.equals(persistenceId) && operation instanceof ReadEvents read) {
            count.addAndGet(read.getBatch().size());
        }
        return ProcessingSuccess$.MODULE$;
    }
}
