package io.kubepekko.api.watch;

import io.kubepekko.api.status.ApiStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Which state of a collection a list or get must be served from, decided from its {@link
 * ReadOptions.Mode}, and how that resolves against a watch cache: a snapshot now, wait for the
 * cache to catch up, or fail (410 when the version has left the retained history).
 *
 * @param target what the version means
 * @param version the version the target refers to (0 with {@link Target#LATEST}: any)
 * @param continueFrom with {@link Target#CONTINUE}, the token's start key (offered again, at the
 *     latest version, when the token has expired)
 */
public record CacheRead(Target target, long version, String continueFrom) {

    public CacheRead(Target target, long version) {
        this(target, version, null);
    }

    /** The kinds of version a read can need. */
    public enum Target {
        /** The latest state, once the cache has reached at least {@code version}. */
        LATEST,
        /**
         * Exactly {@code version} (a list with resourceVersionMatch=Exact, or a paged list at a
         * version).
         */
        EXACT,
        /** The snapshot a continue token was issued at; it expires with the continue-token TTL. */
        CONTINUE
    }

    /** What a read resolves to against the cache as it is now. */
    public sealed interface Outcome {
        record Ready(Snapshot snapshot) implements Outcome {}

        /** The cache has not reached the version yet (or is still loading): ask again later. */
        record Wait() implements Outcome {}

        record Failed(ApiStatus status) implements Outcome {}
    }

    private static final Outcome WAIT = new Outcome.Wait();

    /**
     * The read a mode asks for.
     *
     * @param latestCommitted for {@link ReadOptions.Mode.MostRecent}: the highest committed
     *     version, which a consistent read must reflect
     */
    public static CacheRead of(ReadOptions.Mode mode, long latestCommitted) {
        if (mode instanceof ReadOptions.Mode.MostRecent) {
            return new CacheRead(Target.LATEST, latestCommitted);
        }
        if (mode instanceof ReadOptions.Mode.Any) {
            return new CacheRead(Target.LATEST, 0);
        }
        if (mode instanceof ReadOptions.Mode.NotOlderThan n) {
            return new CacheRead(Target.LATEST, n.resourceVersion());
        }
        if (mode instanceof ReadOptions.Mode.Exact e) {
            return new CacheRead(Target.EXACT, e.resourceVersion());
        }
        ContinueToken token = ((ReadOptions.Mode.Continue) mode).token();
        // kube-apiserver issues a "latest" token when a consistent continuation is impossible; the
        // next page is then a fresh consistent read.
        return token.latest()
                ? new CacheRead(Target.LATEST, latestCommitted)
                : new CacheRead(Target.CONTINUE, token.resourceVersion(), token.startKey());
    }

    /** Whether the read needs the highest committed version first (a consistent read). */
    public static boolean needsLatestCommitted(ReadOptions.Mode mode) {
        return mode instanceof ReadOptions.Mode.MostRecent
                || mode instanceof ReadOptions.Mode.Continue c && c.token().latest();
    }

    /**
     * Resolves the read against {@code state} at {@code now}; a continue snapshot superseded longer
     * than {@code continueTtl} ago has expired, as if storage had compacted it.
     */
    public Outcome resolve(CacheState state, Instant now, Duration continueTtl) {
        if (state == null || !state.ready() || version > state.resourceVersion()) {
            return WAIT;
        }
        return switch (target) {
            case LATEST -> new Outcome.Ready(state.snapshotLatest());
            case EXACT ->
                    state.snapshot(version)
                            .<Outcome>map(Outcome.Ready::new)
                            .orElseGet(
                                    () ->
                                            new Outcome.Failed(
                                                    ReadErrors.listResourceVersionTooOld()));
            case CONTINUE -> {
                Optional<Snapshot> s = state.snapshot(version);
                boolean expired =
                        s.isEmpty()
                                || state.supersededAt(version)
                                        .map(at -> !at.plus(continueTtl).isAfter(now))
                                        .orElse(false);
                if (!expired) {
                    yield new Outcome.Ready(s.get());
                }
                yield new Outcome.Failed(
                        continueFrom == null
                                ? ReadErrors.continueExpired()
                                : ReadErrors.continueExpired(
                                        new ContinueToken(-1, continueFrom).encode()));
            }
        };
    }

    /** The answer when the cache did not reach the version in time: 504 with Retry-After. */
    public ApiStatus timedOut(CacheState state) {
        return ReadErrors.tooLargeResourceVersion(
                version, state == null ? 0 : state.resourceVersion());
    }
}
