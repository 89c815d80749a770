package io.kubepekko.api.store;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Kubernetes' {@code metav1.Time} form: RFC 3339 in UTC with second precision, e.g. {@code
 * 2026-11-22T03:30:29Z}.
 */
public final class Timestamps {
    private Timestamps() {}

    public static String format(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
