package io.kubepekko.http.audit;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * New audit IDs: random (version 4) UUIDs, as kube's, drawn from the thread's own generator. An
 * audit ID names a request in the log and in its {@code Audit-Id} response header; it grants
 * nothing, so it needs no secure random source, whose shared generator every request would
 * otherwise wait on (the JDK's {@code UUID.randomUUID} reads one under a lock).
 */
public final class AuditIds {
    private AuditIds() {}

    /** A new random audit ID in UUID form. */
    public static String next() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L; // version 4
        long low = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // IETF variant
        return new UUID(high, low).toString();
    }
}
