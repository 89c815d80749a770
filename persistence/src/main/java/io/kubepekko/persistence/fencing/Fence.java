package io.kubepekko.persistence.fencing;

import java.util.Optional;
import scala.concurrent.ExecutionContext;
import scala.concurrent.Future;
import scala.concurrent.Future$;
import scala.util.Failure;
import scala.util.Try;

/**
 * The refusal both fenced plugins answer with while this server's {@link WritePermit} has lapsed.
 */
final class Fence {
    private Fence() {}

    /** A failed future naming why, when the permit has lapsed; empty when this server may write. */
    static <T> Optional<Future<T>> refused(WritePermit permit) {
        return permit.refusal()
                .map(
                        why ->
                                Future$.MODULE$.failed(
                                        new FencedCassandraJournal.FencedException(why)));
    }

    /**
     * The answer of a write that passed {@link #refused}, failed if it came when the others may
     * already have replaced this server ({@link WritePermit#refusalOfAnswer}): the driver may hold
     * a write in memory across a pause (GC, SIGSTOP) and send it after a successor recovered the
     * entity, so such an answer is never reported as a success (the writer gets an error; the write
     * may or may not have been applied).
     */
    static <T> Future<T> confirmed(WritePermit permit, Future<T> written, ExecutionContext ec) {
        return written.transform(
                (Try<T> result) -> {
                    if (result.isFailure()) {
                        return result;
                    }
                    Optional<String> lapsed = permit.refusalOfAnswer(System.nanoTime());
                    return lapsed.<Try<T>>map(
                                    why ->
                                            new Failure<>(
                                                    new FencedCassandraJournal.FencedException(
                                                            why)))
                            .orElse(result);
                },
                ec);
    }
}
