package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.KubepodsLock;
import io.kubepekko.e2e.support.LocalContainerd;
import io.kubepekko.e2e.support.NodeCgroups;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RunningProcess;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster-config/bin/containerd-local}, the project's own containerd for the node agent: it
 * starts and answers on the endpoint it prints last, holds both locally built images in {@code
 * k8s.io}, runs a container from the busybox image, starts idempotently, and its stop leaves no
 * process, mount or cgroup of its — also after containerd itself was killed — and no empty cgroup
 * under {@code kubepods} in any hierarchy. The pause image's program exits 0 on SIGTERM.
 *
 * <p>One directory for the class: the images are built on the first start and reused by the others
 * (which proves the cache). Each test stops what it started. Needs root (as containerd does);
 * skipped otherwise, and with {@code -DskipE2E}.
 */
@DisabledIfSystemProperty(named = "skipE2E", matches = "true")
class ContainerdLocalE2E {
    /** Alone on the machine's kubepods cgroups for the whole class. */
    @RegisterExtension static final KubepodsLock KUBEPODS = new KubepodsLock();

    private static final String PAUSE = "registry.k8s.io/pause:3.10";
    private static final String BUSYBOX = "docker.io/library/busybox:1.36";
    private static final Duration AWAIT = Duration.ofSeconds(60);

    /** The file type bits of a unix socket in {@code st_mode}. */
    private static final int S_IFMT = 0170000;

    private static final int S_IFSOCK = 0140000;

    /** Kept when a test fails: containerd.log is there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path dir;

    private final List<LocalContainerd> started = new ArrayList<>();

    @BeforeAll
    static void needsRoot() throws IOException {
        Assumptions.assumeTrue(
                (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid") == 0,
                "containerd and runc need root");
    }

    @AfterEach
    void stopWhatRemains() {
        for (LocalContainerd containerd : started) {
            containerd.close();
        }
    }

    private LocalContainerd start() {
        LocalContainerd containerd = LocalContainerd.start(dir);
        started.add(containerd);
        return containerd;
    }

    @Test
    void startPrintsAnEndpointThatAnswersWithBothImagesInTheK8sNamespace() throws IOException {
        LocalContainerd containerd = start();
        assertEquals(
                "unix://" + dir.toRealPath().resolve("containerd.sock"),
                containerd.endpoint(),
                containerd.startResult().describe());
        int mode = (Integer) Files.getAttribute(containerd.socket(), "unix:mode");
        assertEquals(S_IFSOCK, mode & S_IFMT, "a unix socket at " + containerd.socket());

        ProcessResult version = containerd.ctr("version");
        assertEquals(0, version.exitCode(), version.describe());
        assertTrue(version.stdout().contains("Server:"), version.describe());

        ProcessResult images = containerd.ctr("-n", "k8s.io", "images", "ls", "-q");
        assertEquals(0, images.exitCode(), images.describe());
        List<String> refs = images.stdoutText().lines().toList();
        assertTrue(refs.contains(PAUSE) && refs.contains(BUSYBOX), images.describe());
    }

    @Test
    void aContainerRunsFromTheBusyboxImage() {
        LocalContainerd containerd = start();
        String id = "hello-" + UUID.randomUUID();
        ProcessResult run =
                containerd.ctr("-n", "k8s.io", "run", "--rm", BUSYBOX, id, "echo", "hello");
        assertEquals(0, run.exitCode(), run.describe());
        assertEquals("hello", run.stdoutText(), run.describe());

        // As the real image: sh is its command, and the applets are on the PATH.
        ProcessResult shell =
                containerd.ctr(
                        "-n",
                        "k8s.io",
                        "run",
                        "--rm",
                        BUSYBOX,
                        id + "-sh",
                        "sh",
                        "-c",
                        "which wget && echo $PATH");
        assertEquals(0, shell.exitCode(), shell.describe());
        assertEquals(
                List.of(
                        "/bin/wget",
                        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"),
                shell.stdoutText().lines().toList(),
                shell.describe());
    }

    @Test
    void startingAgainWhileItRunsOnlyPrintsTheEndpoint() {
        LocalContainerd first = start();
        long pid = first.pid();
        LocalContainerd second = start();
        assertEquals(first.endpoint(), second.endpoint(), second.startResult().describe());
        assertEquals(pid, second.pid(), "the same containerd");
        assertFalse(
                second.startResult().stderr().contains("building"),
                second.startResult().describe());
        assertEquals(
                1,
                second.startResult().stdoutText().lines().count(),
                second.startResult().describe());
    }

    @Test
    void stopLeavesNoProcessMountOrCgroupOfItsOwn() throws IOException {
        LocalContainerd containerd = start();
        List<String> ids = runDetached(containerd);
        // As an agent's sandboxes leave them (the pod level, which no container's spec names) in
        // every hierarchy.
        List<Path> leftovers = new ArrayList<>();
        String uid = UUID.randomUUID().toString();
        for (Path hierarchy : NodeCgroups.hierarchies()) {
            leftovers.add(
                    Files.createDirectories(
                            hierarchy.resolve("kubepods/besteffort/pod" + uid + "/0123abcd")));
            leftovers.add(Files.createDirectories(hierarchy.resolve("kubepods/pod" + uid)));
        }
        ProcessResult stop = containerd.stop();
        assertEquals(0, stop.exitCode(), stop.describe());
        assertNothingLeft(containerd, ids);
        assertEquals(
                List.of(),
                leftovers.stream().filter(Files::exists).toList(),
                "the pods' cgroups are gone");
        assertEquals(List.of(), NodeCgroups.emptyUnderKubepods(), "no empty cgroup under kubepods");
    }

    /**
     * A crashed containerd leaves its shims and containers running: stop finds them by their
     * socket.
     */
    @Test
    void stopAfterContainerdWasKilledStillEndsItsContainers() throws IOException {
        LocalContainerd containerd = start();
        List<String> ids = runDetached(containerd);
        ProcessHandle daemon = ProcessHandle.of(containerd.pid()).orElseThrow();
        daemon.destroyForcibly();
        await().atMost(AWAIT).until(() -> !daemon.isAlive());
        assertFalse(ourProcesses(containerd).isEmpty(), "its shims outlive it");

        ProcessResult stop = containerd.stop();
        assertEquals(0, stop.exitCode(), stop.describe());
        assertNothingLeft(containerd, ids);
    }

    @Test
    void pauseRunsUntilSigtermAndThenExitsZero() {
        LocalContainerd containerd = start();
        String id = "pause-" + UUID.randomUUID();
        // ctr run in the foreground ends with the task, with its exit status.
        try (RunningProcess run =
                RunningProcess.start(
                        List.of(
                                "ctr",
                                "--address",
                                containerd.socket().toString(),
                                "-n",
                                "k8s.io",
                                "run",
                                "--rm",
                                PAUSE,
                                id),
                        null,
                        Map.of())) {
            await().atMost(AWAIT).until(() -> taskStatus(containerd, id).equals("RUNNING"));
            assertTrue(run.isAlive(), "pause keeps running");
            ProcessResult kill =
                    containerd.ctr("-n", "k8s.io", "tasks", "kill", "--signal", "SIGTERM", id);
            assertEquals(0, kill.exitCode(), kill.describe());
            ProcessResult exited = run.awaitExit(AWAIT);
            assertEquals(0, exited.exitCode(), exited.describe());
        }
    }

    /**
     * As the real pause, PID 1 of a pod reaps what is orphaned in its PID namespace: a process left
     * behind there is adopted by pause and, once killed, does not stay a zombie.
     */
    @Test
    void pauseReapsAnOrphanAdoptedInItsPidNamespace() {
        LocalContainerd containerd = start();
        String id = "pause-" + UUID.randomUUID();
        ProcessResult run = containerd.ctr("-n", "k8s.io", "run", "-d", PAUSE, id);
        assertEquals(0, run.exitCode(), run.describe());
        await().atMost(AWAIT).until(() -> taskStatus(containerd, id).equals("RUNNING"));
        String pause = taskPid(containerd, id);
        // sh starts in pause's PID namespace, leaves a sleep behind and exits: the orphan goes to
        // pause.
        ProcessResult orphan =
                Processes.run(
                        List.of(
                                "nsenter",
                                "--target",
                                pause,
                                "--pid",
                                "--",
                                "sh",
                                "-c",
                                "sleep 3600 & exit 0"),
                        null,
                        Map.of(),
                        AWAIT);
        assertEquals(0, orphan.exitCode(), orphan.describe());
        await().atMost(AWAIT).until(() -> childrenOf(pause).size() == 1);
        long adopted = Long.parseLong(childrenOf(pause).get(0).split("\\s+")[0]);
        ProcessHandle.of(adopted).ifPresent(ProcessHandle::destroyForcibly);
        await().atMost(AWAIT).until(() -> childrenOf(pause).isEmpty());
    }

    /** "pid stat" of each child of {@code pid}, zombies included. */
    private static List<String> childrenOf(String pid) {
        ProcessResult ps =
                Processes.run(
                        List.of("ps", "-o", "pid=,stat=", "--ppid", pid), null, Map.of(), AWAIT);
        return ps.stdoutText().lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
    }

    private static String taskPid(LocalContainerd containerd, String id) {
        ProcessResult tasks = containerd.ctr("-n", "k8s.io", "tasks", "ls");
        return tasks.stdoutText()
                .lines()
                .map(line -> line.trim().split("\\s+"))
                .filter(columns -> columns.length == 3 && columns[0].equals(id))
                .map(columns -> columns[1])
                .findFirst()
                .orElseThrow(() -> new AssertionError("no task " + id + "\n" + tasks.describe()));
    }

    /**
     * A socket path someone else listens on is not taken over: one line names it, exit 1, nothing
     * started.
     */
    @Test
    void startRefusesASocketAnotherProcessListensOn(@TempDir Path other) throws IOException {
        Path socket = other.toRealPath().resolve("containerd.sock");
        try (ServerSocketChannel listener = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            listener.bind(UnixDomainSocketAddress.of(socket));
            ProcessResult start =
                    LocalContainerd.run(
                            LocalContainerd.START_TIMEOUT, "start", "--dir", other.toString());
            assertEquals(1, start.exitCode(), start.describe());
            assertEquals("", start.stdout(), start.describe());
            assertEquals(
                    List.of(
                            "containerd-local: "
                                    + socket
                                    + " is in use by another process; stop it or use another --dir"),
                    start.stderrText().lines().toList(),
                    start.describe());
            assertFalse(Files.exists(other.resolve("containerd.pid")), "nothing started");
        }
    }

    /**
     * As systemctl restart containerd (KillMode=process): the daemon goes, its containers stay and
     * are taken back.
     */
    @Test
    void stopKeepingContainersAndRestartLeaveTheContainersRunningAndAPlainStopStillEndsThem()
            throws IOException {
        LocalContainerd containerd = start();
        List<String> ids = runDetached(containerd);
        String sleeperPid = taskPid(containerd, ids.get(0));
        ProcessHandle daemon = ProcessHandle.of(containerd.pid()).orElseThrow();

        ProcessResult stopDaemon = containerd.stopDaemon();
        assertEquals(0, stopDaemon.exitCode(), stopDaemon.describe());
        assertFalse(running(daemon), "containerd stopped");
        assertFalse(Files.exists(containerd.socket()), "its socket removed");
        assertTrue(
                ProcessHandle.of(Long.parseLong(sleeperPid))
                        .map(ContainerdLocalE2E::running)
                        .orElse(false),
                "the container runs on without containerd");

        ProcessResult again = containerd.startAgain();
        assertTrue(LocalContainerd.endpointOf(again).isPresent(), again.describe());
        for (String id : ids) {
            assertEquals("RUNNING", taskStatus(containerd, id), "taken back: " + id);
        }
        assertEquals(sleeperPid, taskPid(containerd, ids.get(0)), "the same process");

        ProcessResult restart =
                LocalContainerd.run(
                        LocalContainerd.START_TIMEOUT, "restart", "--dir", dir.toString());
        assertTrue(LocalContainerd.endpointOf(restart).isPresent(), restart.describe());
        assertEquals(
                sleeperPid, taskPid(containerd, ids.get(0)), "restart keeps the container too");

        ProcessResult stop = containerd.stop();
        assertEquals(0, stop.exitCode(), stop.describe());
        assertNothingLeft(containerd, ids);
    }

    @Test
    void keepContainersIsAFlagOfStopOnly() {
        ProcessResult start =
                LocalContainerd.run(Duration.ofMinutes(1), "start", "--keep-containers");
        assertEquals(2, start.exitCode(), start.describe());
        assertEquals(
                "containerd-local: --keep-containers is a flag of stop",
                start.stderrText(),
                start.describe());
    }

    @Test
    void anUnknownFlagIsNamedAndExitsTwo() {
        ProcessResult start = LocalContainerd.run(Duration.ofMinutes(1), "start", "--bogus");
        assertEquals(2, start.exitCode(), start.describe());
        assertEquals(
                "containerd-local: unknown flag \"--bogus\"", start.stderrText(), start.describe());
    }

    /** A long-running busybox and a pause container, started detached; returns their ids. */
    private static List<String> runDetached(LocalContainerd containerd) {
        String sleeper = "sleeper-" + UUID.randomUUID();
        String pause = "pause-" + UUID.randomUUID();
        ProcessResult one =
                containerd.ctr("-n", "k8s.io", "run", "-d", BUSYBOX, sleeper, "sleep", "3600");
        assertEquals(0, one.exitCode(), one.describe());
        ProcessResult two = containerd.ctr("-n", "k8s.io", "run", "-d", PAUSE, pause);
        assertEquals(0, two.exitCode(), two.describe());
        await().atMost(AWAIT)
                .until(
                        () ->
                                taskStatus(containerd, sleeper).equals("RUNNING")
                                        && taskStatus(containerd, pause).equals("RUNNING"));
        return List.of(sleeper, pause);
    }

    private static String taskStatus(LocalContainerd containerd, String id) {
        ProcessResult tasks = containerd.ctr("-n", "k8s.io", "tasks", "ls");
        return tasks.stdoutText()
                .lines()
                .map(line -> line.trim().split("\\s+"))
                .filter(columns -> columns.length == 3 && columns[0].equals(id))
                .map(columns -> columns[2])
                .findFirst()
                .orElse("");
    }

    private static void assertNothingLeft(LocalContainerd containerd, List<String> ids)
            throws IOException {
        assertEquals(
                List.of(),
                ourProcesses(containerd),
                "no containerd, shim or container process of ours");
        String root = containerd.dir().toRealPath() + "/";
        List<String> mounts =
                Files.readAllLines(Path.of("/proc/self/mountinfo")).stream()
                        .map(line -> line.split(" ")[4] + "/")
                        .filter(
                                point ->
                                        point.startsWith(root)
                                                || ids.stream().anyMatch(point::contains))
                        .toList();
        assertEquals(List.of(), mounts, "no mount under " + root + " or of our containers");
        for (String id : ids) {
            try (Stream<Path> hierarchies = Files.list(Path.of("/sys/fs/cgroup"))) {
                List<Path> cgroups =
                        hierarchies
                                .map(h -> h.resolve("k8s.io").resolve(id))
                                .filter(Files::exists)
                                .toList();
                assertEquals(List.of(), cgroups, "no cgroup of " + id);
            }
            assertFalse(
                    Files.exists(Path.of("/run/containerd/runc/k8s.io", id)),
                    "no runc state of " + id);
        }
        Path netns = containerd.dir().resolve("state/io.containerd.grpc.v1.cri/netns");
        if (Files.isDirectory(netns)) {
            try (Stream<Path> left = Files.list(netns)) {
                assertEquals(List.of(), left.toList(), "no network namespace of ours");
            }
        }
        assertFalse(Files.exists(containerd.socket()), "socket removed");
        assertFalse(Files.exists(containerd.dir().resolve("containerd.pid")), "pid file removed");
    }

    /**
     * Processes whose command line names our socket or config: containerd, its shims, and their
     * children.
     */
    private static List<String> ourProcesses(LocalContainerd containerd) throws IOException {
        String socket = containerd.socket().toString();
        List<ProcessHandle> roots =
                ProcessHandle.allProcesses()
                        .filter(
                                p ->
                                        p.info()
                                                .commandLine()
                                                .map(
                                                        c ->
                                                                c.contains(socket)
                                                                        || c.contains(
                                                                                containerd
                                                                                        .dir()
                                                                                        .resolve(
                                                                                                "config.toml")
                                                                                        .toString()))
                                                .orElse(false))
                        .toList();
        List<String> alive = new ArrayList<>();
        for (ProcessHandle root : roots) {
            Stream.concat(Stream.of(root), root.descendants())
                    .filter(ContainerdLocalE2E::running)
                    .forEach(p -> alive.add(p.pid() + " " + p.info().commandLine().orElse("?")));
        }
        return alive;
    }

    /** A zombie is gone for our purpose: its parent (here often PID 1) has yet to reap it. */
    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException e) {
            return false; // gone meanwhile
        }
    }
}
