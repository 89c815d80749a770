package io.kubepekko.agent.events;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventAggregatorTest {

    private static final Instant T0 = Instant.parse("2026-01-02T03:04:05Z");
    private static final EventAggregator.Key BACK_OFF =
            new EventAggregator.Key(
                    "default",
                    "u1",
                    "spec.containers{app}",
                    "Warning",
                    "BackOff",
                    "Back-off restarting failed container app in pod web_default(u1)");

    private final EventAggregator aggregator = new EventAggregator();
    private final AtomicInteger names = new AtomicInteger();

    private EventAggregator.Decision record(EventAggregator.Key key, Instant at) {
        return aggregator.record(key, at, () -> "web." + names.incrementAndGet());
    }

    @Test
    void anIdenticalEventWithinTenMinutesPatchesTheEarlierOne() {
        assertEquals(new EventAggregator.Decision.Create("web.1"), record(BACK_OFF, T0));
        assertEquals(
                new EventAggregator.Decision.Patch("web.1", 2, T0),
                record(BACK_OFF, T0.plusSeconds(30)));
        assertEquals(
                new EventAggregator.Decision.Patch("web.1", 3, T0),
                record(BACK_OFF, T0.plusSeconds(60)));
    }

    @Test
    void theWindowRunsFromTheLastRepeat() {
        record(BACK_OFF, T0);
        record(BACK_OFF, T0.plus(Duration.ofMinutes(9)));
        assertEquals(
                new EventAggregator.Decision.Patch("web.1", 3, T0),
                record(BACK_OFF, T0.plus(Duration.ofMinutes(18))));
    }

    @Test
    void anEventAfterTenMinutesOfSilenceIsANewObject() {
        record(BACK_OFF, T0);
        assertEquals(
                new EventAggregator.Decision.Create("web.2"),
                record(BACK_OFF, T0.plus(Duration.ofMinutes(10)).plusSeconds(1)));
    }

    @Test
    void aDifferentMessageReasonObjectOrFieldIsADifferentEvent() {
        record(BACK_OFF, T0);
        assertEquals(
                new EventAggregator.Decision.Create("web.2"),
                record(
                        new EventAggregator.Key(
                                "default",
                                "u1",
                                "spec.containers{app}",
                                "Warning",
                                "BackOff",
                                "other"),
                        T0));
        assertEquals(
                new EventAggregator.Decision.Create("web.3"),
                record(
                        new EventAggregator.Key(
                                "default",
                                "u2",
                                "spec.containers{app}",
                                "Warning",
                                "BackOff",
                                BACK_OFF.message()),
                        T0));
        assertEquals(
                new EventAggregator.Decision.Create("web.4"),
                record(
                        new EventAggregator.Key(
                                "default",
                                "u1",
                                "spec.containers{side}",
                                "Warning",
                                "BackOff",
                                BACK_OFF.message()),
                        T0));
    }

    @Test
    void aForgottenEventStartsAfresh() {
        record(BACK_OFF, T0);
        aggregator.forget(BACK_OFF);
        assertEquals(
                new EventAggregator.Decision.Create("web.2"), record(BACK_OFF, T0.plusSeconds(1)));
    }
}
