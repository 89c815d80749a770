package io.kubepekko.persistence.fencing;

import scala.concurrent.Future;

import java.util.Optional;

/** The refusal both fenced plugins answer with while this server's {@link WritePermit} has lapsed. */
final class Fence {
    private Fence() {}

    /** A failed future naming why, when the permit has lapsed; empty when this server may write. */
    static <T> Optional<Future<T>> refused(WritePermit permit) {
        return permit.refusal().map(why -> scala.concurrent.Future$.MODULE$.failed(
                new FencedCassandraJournal.FencedException(why)));
    }
}
