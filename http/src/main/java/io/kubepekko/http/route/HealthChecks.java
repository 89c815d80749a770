package io.kubepekko.http.route;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The named checks behind {@code /healthz}, {@code /livez} and {@code /readyz}, rendered as
 * kube-apiserver renders them. A check returns empty when it passes, or the reason it fails (never
 * shown to clients: "reason withheld").
 */
public final class HealthChecks {

    /** One endpoint's rendering: status code and plain-text body. */
    record Result(int code, String body) {}

    private final Map<String, Supplier<Optional<String>>> checks = new LinkedHashMap<>();
    private final Set<String> startupChecks;
    private final Clock clock;
    private final Instant started;
    private final Duration gracePeriod;

    /**
     * @param startupChecks checks that belong to start-up: during {@code gracePeriod} after {@code
     *     started}, /livez counts them as passing (kube's --livez-grace-period)
     */
    public HealthChecks(
            Map<String, Supplier<Optional<String>>> checks,
            Set<String> startupChecks,
            Clock clock,
            Duration gracePeriod) {
        this.checks.putAll(checks);
        this.startupChecks = startupChecks;
        this.clock = clock;
        this.started = clock.instant();
        this.gracePeriod = gracePeriod;
    }

    private boolean inGrace() {
        return clock.instant().isBefore(started.plus(gracePeriod));
    }

    private Optional<String> run(String name, boolean live) {
        Optional<String> r = checks.get(name).get();
        if (r.isPresent() && live && startupChecks.contains(name) && inGrace()) {
            return Optional.empty();
        }
        return r;
    }

    /** Whether every check passes now, as the endpoint without parameters would answer. */
    public boolean passing() {
        for (String name : checks.keySet()) {
            if (run(name, false).isPresent()) {
                return false;
            }
        }
        return true;
    }

    /** {@code /<endpoint>} with its {@code verbose} and {@code exclude} parameters. */
    Result all(String endpoint, boolean verbose, List<String> exclude, boolean live) {
        StringBuilder b = new StringBuilder();
        boolean failed = false;
        for (String name : checks.keySet()) {
            if (exclude.contains(name)) {
                b.append("[+]").append(name).append(" excluded: ok\n");
                continue;
            }
            if (run(name, live).isPresent()) {
                failed = true;
                b.append("[-]").append(name).append(" failed: reason withheld\n");
            } else {
                b.append("[+]").append(name).append(" ok\n");
            }
        }
        if (failed) {
            return new Result(500, b + endpoint + " check failed\n");
        }
        return verbose ? new Result(200, b + endpoint + " check passed\n") : new Result(200, "ok");
    }

    /** {@code /<endpoint>/<check>}; empty when no such check exists. */
    Optional<Result> one(String name, boolean live) {
        if (!checks.containsKey(name)) {
            return Optional.empty();
        }
        return Optional.of(
                run(name, live).isPresent()
                        ? new Result(500, "internal server error: " + name + " check failed\n")
                        : new Result(200, "ok"));
    }
}
