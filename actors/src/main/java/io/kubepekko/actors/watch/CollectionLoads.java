package io.kubepekko.actors.watch;

import io.kubepekko.actors.Backoff;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The loads of a cache's collections: at most one per start of the cache, and one that failed is
 * tried again after a back-off. Answers arrive as {@link WatchCache.Loaded} or {@link
 * WatchCache.LoadFailed} with the generation of the start they belong to; those of an earlier start
 * are ignored. Used by the cache actor only, on its thread.
 */
final class CollectionLoads {

    /**
     * How long a failed load waits before the next attempt: doubling from 1 s up to 30 s, so a
     * storage outage costs the storage a few reads per cache and minute, and a cache loads soon
     * after it is back.
     */
    static final Backoff BACKOFF = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));

    private final ActorContext<WatchCache.Command> ctx;
    private final Supplier<CompletionStage<WatchCache.Contents>> load;
    private final Clock clock;
    private long generation;

    /** Whether the load of the current {@code generation} is under way. */
    private boolean inFlight;

    /** Loads failed in a row, and when the next may start. */
    private int failures;

    private Instant after = Instant.MIN;

    CollectionLoads(
            ActorContext<WatchCache.Command> ctx,
            Supplier<CompletionStage<WatchCache.Contents>> load,
            Clock clock) {
        this.ctx = ctx;
        this.load = load;
        this.clock = clock;
    }

    /** A new start: a load still under way belongs to an earlier one, and its answer is ignored. */
    void restart() {
        generation++;
        inFlight = false;
    }

    /**
     * Starts over and loads now, or once the back-off after failed loads is over ({@link
     * #retryDue}).
     */
    void load() {
        restart();
        if (!clock.instant().isBefore(after)) {
            start();
        }
    }

    /** Starts the load that waited for its back-off, once that is over. */
    void retryDue(Instant now) {
        if (!inFlight && !now.isBefore(after)) {
            start();
        }
    }

    /** Whether an answer of {@code g} belongs to the current start. */
    boolean current(long g) {
        return g == generation;
    }

    /** The current load succeeded. */
    void succeeded() {
        inFlight = false;
        failures = 0;
        after = Instant.MIN;
    }

    /** The current load failed: how long until the next attempt. */
    Duration failed(Instant now) {
        inFlight = false;
        Duration wait = BACKOFF.after(failures++);
        after = now.plus(wait);
        return wait;
    }

    /** Loads failed in a row. */
    int failures() {
        return failures;
    }

    private void start() {
        long g = generation;
        inFlight = true;
        ctx.pipeToSelf(
                load.get(),
                (contents, error) ->
                        contents != null
                                ? new WatchCache.Loaded(g, contents)
                                : new WatchCache.LoadFailed(
                                        g,
                                        String.valueOf(error == null ? null : error.getMessage())));
    }
}
