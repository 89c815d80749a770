package io.kubepekko.agent.logs;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerMetadata;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxMetadata;
import io.kubepekko.agent.cri.v1.ReopenContainerLogRequest;
import io.kubepekko.agent.runtime.SandboxConfigs;
import io.kubepekko.testsupport.ManualClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log manager against {@link FakeCri}: a running container's log over the limit is rotated and
 * bounded.
 */
class ContainerLogManagerTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);
    private static final Duration PERIOD = Duration.ofMillis(50);
    private static final long MAX_SIZE = 200;

    @TempDir Path dir;

    private ActorTestKit kit;
    private FakeCri fake;
    private CriRuntime cri;
    private Path podLogs;

    @BeforeEach
    void start() {
        kit = ActorTestKit.create();
        fake = FakeCri.start(dir.resolve("cri.sock"));
        cri = fake.client();
        podLogs = dir.resolve("root").resolve("pod-logs");
    }

    @AfterEach
    void stop() {
        kit.shutdownTestKit();
        fake.close();
    }

    /**
     * A running container of pod {@code default/web} whose log is {@code <logDirectory>/app/0.log}.
     */
    private String runContainer(Path logDirectory, boolean podLabels) throws Exception {
        PodSandboxConfig.Builder sandbox =
                PodSandboxConfig.newBuilder()
                        .setMetadata(
                                PodSandboxMetadata.newBuilder()
                                        .setName("web")
                                        .setNamespace("default")
                                        .setUid("uid-1"))
                        .setLogDirectory(logDirectory.toString());
        ContainerConfig.Builder container =
                ContainerConfig.newBuilder()
                        .setMetadata(ContainerMetadata.newBuilder().setName("app"))
                        .setImage(ImageSpec.newBuilder().setImage(FakeCri.BUSYBOX_IMAGE))
                        .setLogPath("app/0.log");
        if (podLabels) {
            sandbox.putLabels(SandboxConfigs.POD_UID_LABEL, "uid-1");
            container.putLabels(SandboxConfigs.POD_UID_LABEL, "uid-1");
        }
        Files.createDirectories(logDirectory.resolve("app"));
        String sandboxId =
                cri.runPodSandbox(sandbox.build(), "")
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
        String id =
                cri.createContainer(sandboxId, container.build(), sandbox.build())
                        .toCompletableFuture()
                        .get(10, TimeUnit.SECONDS);
        cri.startContainer(id).toCompletableFuture().get(10, TimeUnit.SECONDS);
        return id;
    }

    /** Writes lines until the live log holds more than the limit. */
    private void fillPastLimit(String id, Path log, String tag) throws IOException {
        int i = 0;
        while (!Files.exists(log) || Files.size(log) <= MAX_SIZE) {
            fake.writeLog(id, tag + " line " + i++);
        }
    }

    private static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * A clock a minute further at each read, so each rotation has its own timestamp as 10 s rounds
     * would.
     */
    private static Clock minutes() {
        return ManualClock.ticking(Instant.parse("2026-11-28T19:00:00Z"), Duration.ofMinutes(1));
    }

    private int reopens() {
        return fake.calls("ReopenContainerLog").size();
    }

    @Test
    void aLogPastTheLimitIsRotatedTheRuntimeReopensItAndAtMostMaxFilesRemain() throws Exception {
        Path podDir = podLogs.resolve("default_web_uid-1");
        String id = runContainer(podDir, true);
        Path appDir = podDir.resolve("app");
        Path log = appDir.resolve("0.log");
        kit.spawn(
                ContainerLogManager.create(
                        cri, podLogs, new LogRotationPolicy(MAX_SIZE, 3), PERIOD, minutes()));

        for (int round = 1; round <= 4; round++) {
            fillPastLimit(id, log, "round-" + round);
            int expected = round;
            await().atMost(DEADLINE).until(() -> reopens() >= expected);
            await().atMost(DEADLINE).until(() -> Files.exists(log) && Files.size(log) == 0);
        }

        List<String> files = names(appDir);
        assertEquals(3, files.size(), files.toString());
        assertEquals("0.log", files.get(0));
        assertTrue(files.get(1).matches("0\\.log\\.\\d{8}-\\d{6}\\.gz"), files.toString());
        assertTrue(files.get(2).matches("0\\.log\\.\\d{8}-\\d{6}"), files.toString());
        assertTrue(Files.readString(appDir.resolve(files.get(2))).contains("round-4 line 0"));
        try (InputStream in =
                new GZIPInputStream(Files.newInputStream(appDir.resolve(files.get(1))))) {
            String older = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(older.contains(" stdout F round-3 line 0"), older);
        }
        ReopenContainerLogRequest reopen =
                (ReopenContainerLogRequest) fake.calls("ReopenContainerLog").get(0).request();
        assertEquals(id, reopen.getContainerId());
    }

    @Test
    void whenTheRuntimeDoesNotReopenTheLogTheRotatedFileGetsItsNameBack() throws Exception {
        Path podDir = podLogs.resolve("default_web_uid-1");
        String id = runContainer(podDir, true);
        Path log = podDir.resolve("app/0.log");
        fillPastLimit(id, log, "kept");
        String before = Files.readString(log);
        fake.exitContainer(
                id, 0); // containerd refuses ReopenContainerLog for a container that is not running
        ContainerLogRotator rotator =
                new ContainerLogRotator(cri, new LogRotationPolicy(MAX_SIZE, 3), minutes());
        assertThrows(CompletionException.class, () -> rotator.rotate(id, log));
        assertEquals(List.of("0.log"), names(podDir.resolve("app")));
        assertEquals(before, Files.readString(log));
    }

    @Test
    void aLogBelowTheLimitIsLeftAsItIs() throws Exception {
        Path podDir = podLogs.resolve("default_web_uid-1");
        String id = runContainer(podDir, true);
        fake.writeLog(id, "short");
        kit.spawn(
                ContainerLogManager.create(
                        cri, podLogs, new LogRotationPolicy(MAX_SIZE, 3), PERIOD, minutes()));
        // Three rounds have looked at its log.
        await().atMost(DEADLINE).until(() -> fake.calls("ContainerStatus").size() >= 3);
        assertEquals(List.of("0.log"), names(podDir.resolve("app")));
        assertEquals(0, reopens());
    }

    @Test
    void aContainerWhoseLogIsOutsideThePodLogDirectoryIsNotTouched() throws Exception {
        String foreign = runContainer(dir.resolve("elsewhere"), true);
        assertNotTouched(foreign, dir.resolve("elsewhere/app"));
    }

    @Test
    void aContainerWithoutPodLabelsIsNotTouched() throws Exception {
        Path podDir = podLogs.resolve("default_web_uid-1");
        String foreign = runContainer(podDir, false);
        assertNotTouched(foreign, podDir.resolve("app"));
    }

    private void assertNotTouched(String id, Path appDir) throws Exception {
        fillPastLimit(id, appDir.resolve("0.log"), "x");
        kit.spawn(
                ContainerLogManager.create(
                        cri, podLogs, new LogRotationPolicy(MAX_SIZE, 3), PERIOD, minutes()));
        // The third list starts once two rounds are done.
        await().atMost(DEADLINE).until(() -> fake.calls("ListContainers").size() >= 3);
        assertEquals(List.of("0.log"), names(appDir));
        assertEquals(0, reopens());
    }
}
