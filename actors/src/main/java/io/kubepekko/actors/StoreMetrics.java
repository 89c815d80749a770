package io.kubepekko.actors;

import io.kubepekko.api.GroupResource;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * Where a node's store reports what it does for the server's metrics: each collection's journal
 * writes and each watch cache's events received. One per actor system (a server runs one), so that
 * the collections and caches sharding starts find it without it travelling through every factory;
 * the server installs its recorder before the store starts, and until then nothing is recorded.
 */
public final class StoreMetrics implements Extension {

    /** What the store reports to; handles are asked once per collection or cache, not per event. */
    public interface Recorder {

        /** Records nothing. */
        Recorder NONE =
                new Recorder() {
                    @Override
                    public JournalWrites journal(GroupResource resource) {
                        return (events, nanos) -> {};
                    }

                    @Override
                    public CacheEvents cacheEvents(GroupResource resource) {
                        return events -> {};
                    }
                };

        /** Where the journal writes of {@code resource}'s collections are recorded. */
        JournalWrites journal(GroupResource resource);

        /** Where the events {@code resource}'s watch cache receives are counted. */
        CacheEvents cacheEvents(GroupResource resource);
    }

    /** The journal writes of one resource. */
    @FunctionalInterface
    public interface JournalWrites {
        /**
         * One write of a collection is durable: {@code events} events persisted atomically, {@code
         * nanos} after the collection asked the journal to persist them.
         */
        void written(int events, long nanos);
    }

    /** The events one watch cache receives from its resource's ordered stream. */
    @FunctionalInterface
    public interface CacheEvents {
        void received(int events);
    }

    private static final ExtensionId<StoreMetrics> ID =
            new ExtensionId<>() {
                @Override
                public StoreMetrics createExtension(ActorSystem<?> system) {
                    return new StoreMetrics();
                }
            };

    private volatile Recorder recorder = Recorder.NONE;

    private StoreMetrics() {}

    /** The actor system's. */
    public static StoreMetrics get(ActorSystem<?> system) {
        return system.registerExtension(ID);
    }

    /** Records to {@code recorder} from now on (collections and caches started later). */
    public void install(Recorder recorder) {
        this.recorder = Objects.requireNonNull(recorder, "recorder");
    }

    public Recorder recorder() {
        return recorder;
    }
}
