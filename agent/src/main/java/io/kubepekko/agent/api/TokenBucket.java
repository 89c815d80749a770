package io.kubepekko.agent.api;

/**
 * client-go's default request throttle ({@code flowcontrol.NewTokenBucketRateLimiter},
 * golang.org/x/time/rate underneath): {@code burst} requests may go at once, then one every {@code
 * 1/qps} seconds. A pure value holder driven by the caller's clock (nanoseconds): {@link #reserve}
 * says how long the caller must wait before sending, and commits the token, as {@code
 * rate.Limiter.Reserve} does. Not thread-safe on its own: the client synchronises on it.
 */
public final class TokenBucket {
    private final double qps;
    private final int burst;
    private double tokens;
    private long lastNanos;

    /** A full bucket at {@code nowNanos}. */
    public TokenBucket(double qps, int burst, long nowNanos) {
        if (qps <= 0 || burst < 1) {
            throw new IllegalArgumentException(
                    "qps must be positive and burst at least 1: " + qps + ", " + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.tokens = burst;
        this.lastNanos = nowNanos;
    }

    /**
     * The kubelet's defaults since Kubernetes 1.27, kubeAPIQPS 50 and kubeAPIBurst 100
     * (pkg/kubelet/apis/config/v1beta1/defaults.go); the older 5 and 10 held 30 pods started at
     * once back by some 20 s of queued status writes.
     */
    public static TokenBucket agentDefaults(long nowNanos) {
        return new TokenBucket(50, 100, nowNanos);
    }

    /**
     * The kubelet's event client's defaults, eventRecordQPS 50 and eventBurst 100
     * (pkg/kubelet/apis/config/v1beta1/defaults.go): a throttle apart from {@link
     * #agentDefaults}'s.
     */
    public static TokenBucket eventDefaults(long nowNanos) {
        return new TokenBucket(50, 100, nowNanos);
    }

    /**
     * Takes one token at {@code nowNanos} and returns how many nanoseconds from now the request may
     * go (0: at once). Tokens may go negative: later callers queue behind earlier ones.
     */
    public long reserve(long nowNanos) {
        if (nowNanos > lastNanos) {
            tokens = Math.min(burst, tokens + (nowNanos - lastNanos) * qps / 1e9);
            lastNanos = nowNanos;
        }
        tokens -= 1;
        if (tokens >= 0) {
            return 0;
        }
        return (long) Math.ceil(-tokens / qps * 1e9);
    }
}
