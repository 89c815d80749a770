package io.kubepekko.actors.watch;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import org.slf4j.Logger;

/**
 * A warning about a condition that lasts or recurs (a cache that cannot load, or cannot catch up
 * with its stream): logged the first time, then at most once per interval with how many were held
 * back meanwhile, so a storage outage leaves a few lines in the log rather than one per retry. Time
 * is the caller's (injected) clock. Not thread-safe: it belongs to one actor.
 */
final class RateLimitedWarning {

    private final Duration interval;
    private Instant lastLogged;
    private int heldBack;
    private boolean raised;

    RateLimitedWarning(Duration interval) {
        this.interval = interval;
    }

    /**
     * Logs {@code pattern} (slf4j) with {@code args} at WARN unless a warning went out less than
     * the interval before {@code now}; then it only counts it. Returns whether it logged.
     */
    boolean warn(Logger log, Instant now, String pattern, Object... args) {
        raised = true;
        if (lastLogged != null && now.isBefore(lastLogged.plus(interval))) {
            heldBack++;
            return false;
        }
        if (heldBack > 0) {
            Object[] more = Arrays.copyOf(args, args.length + 1);
            more[args.length] = heldBack;
            log.warn(pattern + " ({} similar warnings held back)", more);
        } else {
            log.warn(pattern, args);
        }
        lastLogged = now;
        heldBack = 0;
        return true;
    }

    /**
     * The condition is over: the next warning is logged at once. Returns whether it had been warned
     * about since the last clear, so the caller can say it recovered.
     */
    boolean clear() {
        boolean was = raised;
        raised = false;
        lastLogged = null;
        heldBack = 0;
        return was;
    }
}
