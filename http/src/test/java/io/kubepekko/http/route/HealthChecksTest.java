package io.kubepekko.http.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.testsupport.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Rendering of health checks, failures and the livez grace period, with an injected clock. */
class HealthChecksTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private static Map<String, Supplier<Optional<String>>> checks(String failing) {
        Map<String, Supplier<Optional<String>>> m = new LinkedHashMap<>();
        m.put("ping", Optional::empty);
        m.put(failing, () -> Optional.of("the secret reason"));
        m.put("etcd", Optional::empty);
        return m;
    }

    @Test
    void allPassingAnswersOkWithoutVerbose() {
        HealthChecks h =
                new HealthChecks(Map.of("ping", Optional::empty), Set.of(), clock, Duration.ZERO);
        assertEquals(new HealthChecks.Result(200, "ok"), h.all("readyz", false, List.of(), false));
    }

    @Test
    void failingCheckAnswers500WithReasonWithheldAndFinalLine() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ZERO);
        HealthChecks.Result r = h.all("readyz", false, List.of(), false);
        assertEquals(500, r.code());
        assertEquals(
                "[+]ping ok\n[-]x failed: reason withheld\n[+]etcd ok\nreadyz check failed\n",
                r.body());
    }

    @Test
    void failureIsListedInFullEvenWithoutVerbose() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ZERO);
        assertEquals(
                h.all("readyz", true, List.of(), false), h.all("readyz", false, List.of(), false));
    }

    @Test
    void failureReasonIsNeverShown() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ZERO);
        assertTrue(!h.all("readyz", true, List.of(), false).body().contains("the secret reason"));
        assertTrue(!h.one("x", false).orElseThrow().body().contains("the secret reason"));
    }

    @Test
    void excludingTheFailingCheckPasses() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ZERO);
        HealthChecks.Result r = h.all("readyz", true, List.of("x"), false);
        assertEquals(
                new HealthChecks.Result(
                        200, "[+]ping ok\n[+]x excluded: ok\n[+]etcd ok\nreadyz check passed\n"),
                r);
    }

    @Test
    void singleFailingCheckAnswers500() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ZERO);
        assertEquals(
                new HealthChecks.Result(500, "internal server error: x check failed\n"),
                h.one("x", false).orElseThrow());
        assertEquals(new HealthChecks.Result(200, "ok"), h.one("ping", false).orElseThrow());
    }

    @Test
    void unknownSingleCheckIsAbsent() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ZERO);
        assertTrue(h.one("nonexistent", false).isEmpty());
    }

    @Test
    void livezTreatsFailingStartupCheckAsPassingDuringGracePeriod() {
        HealthChecks h =
                new HealthChecks(
                        checks("poststarthook/x"),
                        Set.of("poststarthook/x"),
                        clock,
                        Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(29));
        assertEquals(200, h.all("livez", false, List.of(), true).code());
        assertEquals(200, h.one("poststarthook/x", true).orElseThrow().code());
    }

    @Test
    void livezFailsStartupCheckOnceGracePeriodEnds() {
        HealthChecks h =
                new HealthChecks(
                        checks("poststarthook/x"),
                        Set.of("poststarthook/x"),
                        clock,
                        Duration.ofSeconds(30));
        clock.advance(Duration.ofSeconds(30));
        HealthChecks.Result r = h.all("livez", false, List.of(), true);
        assertEquals(500, r.code());
        assertTrue(r.body().contains("[-]poststarthook/x failed: reason withheld\n"), r.body());
        assertTrue(r.body().endsWith("livez check failed\n"), r.body());
    }

    @Test
    void gracePeriodNeverHidesANonStartupCheck() {
        HealthChecks h = new HealthChecks(checks("x"), Set.of(), clock, Duration.ofMinutes(5));
        assertEquals(500, h.all("livez", false, List.of(), true).code());
    }

    @Test
    void gracePeriodDoesNotApplyToReadyz() {
        HealthChecks h =
                new HealthChecks(
                        checks("poststarthook/x"),
                        Set.of("poststarthook/x"),
                        clock,
                        Duration.ofMinutes(5));
        assertEquals(500, h.all("readyz", false, List.of(), false).code());
    }

    @Test
    void checkIsEvaluatedOnEveryRequest() {
        boolean[] failing = {false};
        Map<String, Supplier<Optional<String>>> m = new LinkedHashMap<>();
        m.put("shutdown", () -> failing[0] ? Optional.of("shutting down") : Optional.empty());
        HealthChecks h = new HealthChecks(m, Set.of(), clock, Duration.ZERO);
        assertEquals(200, h.all("readyz", false, List.of(), false).code());
        failing[0] = true;
        assertEquals(
                new HealthChecks.Result(
                        500, "[-]shutdown failed: reason withheld\nreadyz check failed\n"),
                h.all("readyz", false, List.of(), false));
    }
}
