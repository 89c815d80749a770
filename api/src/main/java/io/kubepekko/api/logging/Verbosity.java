package io.kubepekko.api.logging;

import ch.qos.logback.classic.Level;

/**
 * kube's {@code -v} levels over the Java logger's: klog shows {@code V(n)} messages when {@code n}
 * is at most {@code -v}; kube's logging conventions put debug output at 4 and trace output at 5. So
 * {@code -v} 0 to 3 shows info, warnings and errors (the default), 4 adds debug and 5 or more adds
 * trace; an info or warning event is verbosity 0, debug 4, trace 5.
 */
public final class Verbosity {

    private Verbosity() {}

    static final int DEBUG = 4;
    static final int TRACE = 5;

    /** The root logger's level for {@code -v verbosity}. */
    public static Level level(long verbosity) {
        if (verbosity >= TRACE) {
            return Level.TRACE;
        }
        return verbosity >= DEBUG ? Level.DEBUG : Level.INFO;
    }

    /** The verbosity an event of {@code level} is logged at ({@code v} of the JSON format). */
    static int of(Level level) {
        if (level.toInt() <= Level.TRACE_INT) {
            return TRACE;
        }
        return level.toInt() <= Level.DEBUG_INT ? DEBUG : 0;
    }
}
