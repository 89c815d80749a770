package io.kubepekko.actors.allocation;

import io.kubepekko.actors.allocation.AllocatorProtocol.AskAgain;
import io.kubepekko.actors.allocation.AllocatorProtocol.Command;
import io.kubepekko.actors.allocation.AllocatorProtocol.HoldingsReported;
import io.kubepekko.actors.allocation.AllocatorProtocol.NamespacesListed;
import io.kubepekko.actors.entity.CollectionProtocol;
import io.kubepekko.actors.sequencing.RevisionsProtocol;
import io.kubepekko.api.GroupResource;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The questions a {@link ValueAllocator} asks to reconcile: the sequencers for the namespaces whose
 * collections may hold values, and the collections for their holdings. At most one question to a
 * collection is out at a time; each remembers when it was asked (the allocator's count of processed
 * items), so that only the answer to the latest counts, and how often.
 */
final class HoldingsAsks {

    static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    private final ActorContext<Command> context;
    private final TimerScheduler<Command> timers;
    private final ValueAllocator.Directory directory;

    /**
     * The collections asked for a report: the count they were asked at (-1: not out) and the
     * attempts so far.
     */
    private final Map<String, long[]> asked = new HashMap<>();

    HoldingsAsks(
            ActorContext<Command> context,
            TimerScheduler<Command> timers,
            ValueAllocator.Directory directory) {
        this.context = context;
        this.timers = timers;
        this.directory = directory;
    }

    /** Asks the sequencer of {@code resource} which namespaces have had collections. */
    void listNamespaces(GroupResource resource) {
        context.ask(
                RevisionsProtocol.Namespaces.class,
                directory.revisions().apply(resource),
                ASK_TIMEOUT,
                RevisionsProtocol.GetNamespaces::new,
                (reply, failure) ->
                        new NamespacesListed(
                                resource.toString(),
                                reply == null ? List.of() : reply.namespaces(),
                                failure == null ? null : String.valueOf(failure)));
    }

    /** Lists the namespaces of {@code resource} again after a second. */
    void listNamespacesLater(String resource) {
        timers.startSingleTimer(
                "namespaces:" + resource, new AskAgain(null, resource), Duration.ofSeconds(1));
    }

    /**
     * Asks {@code collection} for its holdings, unless a question is already out; {@code at} is the
     * allocator's count of processed items now.
     */
    void ask(String collection, long at) {
        long[] entry = asked.get(collection);
        if (entry != null && entry[0] >= 0) {
            return;
        }
        long attempts = entry == null ? 0 : entry[1];
        asked.put(collection, new long[] {at, attempts + 1});
        context.ask(
                CollectionProtocol.Holdings.class,
                directory.collections().apply(collection),
                ASK_TIMEOUT,
                CollectionProtocol.ReportHoldings::new,
                (reply, failure) ->
                        new HoldingsReported(
                                collection,
                                at,
                                reply,
                                failure == null ? null : String.valueOf(failure)));
    }

    /** Whether a report asked for at {@code at} answers the latest question (none asked since). */
    boolean awaited(String collection, long at) {
        long[] entry = asked.get(collection);
        return entry != null && entry[0] == at;
    }

    /** The collection's report was applied, or it is given up on. */
    void done(String collection) {
        asked.remove(collection);
    }

    /** How often {@code collection} was asked since its last report was applied. */
    long attempts(String collection) {
        long[] entry = asked.get(collection);
        return entry == null ? 0 : entry[1];
    }

    /** Asks {@code collection} again after a second. */
    void askLater(String collection) {
        long[] entry = asked.get(collection);
        if (entry != null) {
            entry[0] = -1; // not out any more: the next ask may go
        }
        timers.startSingleTimer(
                "holdings:" + collection, new AskAgain(collection, null), Duration.ofSeconds(1));
    }
}
