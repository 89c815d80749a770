package io.kubepekko.http.server;

import io.kubepekko.http.route.HealthChecks;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.apache.pekko.actor.typed.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the moment the server first becomes ready ({@code /readyz} would answer 200) with how long
 * that took from the JVM's start: the start-up time an operator or a benchmark reads from the log
 * instead of polling for it. The checks are run at once and then every few milliseconds on the
 * scheduler until they pass, then never again.
 *
 * <p>When the JVM runs with {@code -Dkubepekko.ready-file=PATH} the moment is also marked by
 * creating that file: {@code cluster-config/bin/apiserver} keeps the class-data archive a start
 * dumps at its exit only when that start got this far, so that a {@code --help} or a start refused
 * for a bad flag, which load a fraction of the classes, never becomes the archive later starts use.
 */
final class ReadyLog {
    private static final Logger log = LoggerFactory.getLogger(ApiServer.class);
    private static final Duration EVERY = Duration.ofMillis(5);
    private static final Duration GIVE_UP_AFTER = Duration.ofMinutes(10);
    static final String READY_FILE = "kubepekko.ready-file";

    private ReadyLog() {}

    static void start(ActorSystem<?> system, HealthChecks readyz) {
        long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();
        ConditionPoll.until(system, readyz::passing, EVERY, EVERY, GIVE_UP_AFTER)
                .thenAccept(
                        ready -> {
                            if (ready) {
                                log.info(
                                        String.format(
                                                Locale.ROOT,
                                                "kubepekko apiserver ready: /readyz passes %.2f s"
                                                        + " after the JVM started",
                                                (System.currentTimeMillis() - jvmStartMillis)
                                                        / 1000.0));
                                markReady();
                            }
                        });
    }

    private static void markReady() {
        String file = System.getProperty(READY_FILE);
        if (file == null || file.isEmpty()) {
            return;
        }
        try {
            Files.write(Path.of(file), new byte[0]);
        } catch (IOException | RuntimeException e) {
            // Only the launch script's archive depends on it, and it then simply keeps none.
            log.debug("could not create the ready file {}", file, e);
        }
    }
}
