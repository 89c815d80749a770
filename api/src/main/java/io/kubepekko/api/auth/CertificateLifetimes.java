package io.kubepekko.api.auth;

import java.time.Duration;
import java.time.Instant;

/**
 * How long the certificates a server issues itself live and when they are issued anew, as k3s has
 * it: its CAs for ten years, the certificates they sign for one, and a certificate within 90 days
 * of its end is renewed at start.
 */
public final class CertificateLifetimes {
    private CertificateLifetimes() {}

    /** A generated CA's validity. */
    public static final Duration CA = Duration.ofDays(3650);

    /** The validity of a serving or client certificate the CAs sign. */
    public static final Duration LEAF = Duration.ofDays(365);

    /** How close to its end a certificate is renewed. */
    public static final Duration RENEW_BEFORE = Duration.ofDays(90);

    /**
     * Whether a certificate valid from {@code notBefore} until {@code notAfter} must be issued anew
     * at {@code now}: it ends within {@link #RENEW_BEFORE}, or is not valid yet (the clock was set
     * back since it was issued).
     */
    public static boolean renewalDue(Instant notBefore, Instant notAfter, Instant now) {
        return now.isBefore(notBefore) || !now.plus(RENEW_BEFORE).isBefore(notAfter);
    }
}
