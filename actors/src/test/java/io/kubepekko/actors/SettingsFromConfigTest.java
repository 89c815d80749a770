package io.kubepekko.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.kubepekko.actors.controllers.Controllers;
import io.kubepekko.actors.sequencing.Revisions;
import io.kubepekko.actors.watch.WatchCache;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The actors' settings records read the actors' reference.conf, and a configuration over it. */
class SettingsFromConfigTest {

    private static final Duration FLAG = Duration.ofMinutes(5);

    private static WatchCache.Settings watch(Config config) {
        return WatchCache.Settings.fromConfig(config, FLAG, FLAG, FLAG, true);
    }

    @Test
    void theCheckpointMarginOutlastsTheLongestAChangeMayWaitToBePublished() {
        // A checkpoint pairs a journal position with the version the cache has reached: a change
        // committed
        // before the position but published after the pairing would be skipped by a resume from it.
        Duration margin = watch(ConfigFactory.defaultReference()).history().checkpointMargin();
        assertTrue(
                margin.compareTo(Revisions.RESOLVE_DEADLINE) > 0,
                "checkpoint-margin "
                        + margin
                        + " is not longer than "
                        + Revisions.RESOLVE_DEADLINE);
    }

    @Test
    void aWatchSettingGivenReplacesItsDefaultAndTheFlagsTheirs() {
        WatchCache.Settings s =
                WatchCache.Settings.fromConfig(
                        ConfigFactory.parseString(
                                        "kubepekko.watch { checkpoint-margin = 1s, max-retained-bytes = 3k }")
                                .withFallback(ConfigFactory.defaultReference()),
                        Duration.ofMinutes(1),
                        Duration.ofSeconds(2),
                        Duration.ofHours(1),
                        false);
        assertEquals(Duration.ofSeconds(1), s.history().checkpointMargin());
        assertEquals(
                ConfigFactory.defaultReference().getDuration("kubepekko.watch.checkpoint-interval"),
                s.history().checkpointInterval());
        assertEquals(3072, s.retention().maxBytes());
        assertEquals(Duration.ofMinutes(1), s.retention().maxAge());
        assertEquals(Duration.ofSeconds(2), s.continueTokenTtl());
        assertEquals(Duration.ofHours(1), s.history().retention());
        assertFalse(s.progressBookmarks());
    }

    @Test
    void noRetainedBytesGivenKeepsAShareOfTheHeap() {
        long bytes = watch(ConfigFactory.defaultReference()).retention().maxBytes();
        assertEquals(Math.max(1, Runtime.getRuntime().maxMemory() / 20), bytes);
    }

    @Test
    void theControllersReadTheirSectionOfTheConfiguration() {
        Controllers.Settings s =
                Controllers.Settings.fromConfig(
                        ConfigFactory.parseString(
                                        """
                kubepekko.controllers.garbage-collector { workers = 7, retry-backoff.max = 1s }
                kubepekko.controllers.namespace-controller.content-recheck = 2s
                """)
                                .withFallback(ConfigFactory.defaultReference()));
        assertEquals(7, s.gc().workers());
        Config reference = ConfigFactory.defaultReference().getConfig("kubepekko.controllers");
        assertEquals(
                new Backoff(
                        reference.getDuration("garbage-collector.retry-backoff.initial"),
                        Duration.ofSeconds(1)),
                s.gc().retry());
        assertEquals(Duration.ofSeconds(2), s.namespaces().contentRecheck());
        assertEquals(reference.getInt("namespace-controller.workers"), s.namespaces().workers());
    }
}
