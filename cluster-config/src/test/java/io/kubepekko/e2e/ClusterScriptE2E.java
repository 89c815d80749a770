package io.kubepekko.e2e;

import io.kubepekko.e2e.support.ApiCalls;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RepositoryRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code cluster-config/bin/cluster}: start a two-node cluster on loopback, write through one node and read
 * through the other, see it in {@code status}, stop it, and find no process of it left.
 */
class ClusterScriptE2E {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);
    private static final Pattern NODE_LINE = Pattern.compile("node (\\d+): (http://127\\.0\\.0\\.1:\\d+)  kubeconfig (\\S+)");
    private static final Pattern PORTS_LINE = Pattern.compile("node \\d+: pid \\d+, http (\\d+), cluster (\\d+)");
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private final Path script = RepositoryRoot.find().resolve("cluster-config/bin/cluster");
    /** Kept when the test fails: the nodes' logs are there. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;
    private boolean started;
    /** Every process id the script recorded, so a failed test still ends them. */
    private final List<Long> pids = new ArrayList<>();

    @AfterEach
    void stopWhatRemains() throws IOException {
        if (!started) {
            return;
        }
        recordPids();
        if (pids.stream().anyMatch(ClusterScriptE2E::alive)) {
            cluster("stop", STOP_TIMEOUT);
        }
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(Processes::killTree);
        }
    }

    @Test
    void startsTwoNodesThatShareObjectsAndStopsLeavingNoProcess() throws IOException {
        started = true;
        ProcessResult start = cluster("start", START_TIMEOUT, "--nodes", "2");
        assertEquals(0, start.exitCode(), start.describe());
        List<String> urls = new ArrayList<>();
        Matcher m = NODE_LINE.matcher(start.stdout());
        while (m.find()) {
            assertEquals(urls.size(), Integer.parseInt(m.group(1)), start.describe());
            urls.add(m.group(2));
            assertTrue(Files.isRegularFile(Path.of(m.group(3))), "kubeconfig " + m.group(3) + "\n" + start.describe());
        }
        assertEquals(2, urls.size(), start.describe());
        assertFreePortsDistinctAndBelowEphemeralRange(start);
        assertTrue(start.stdout().contains("cassandra: 127.0.0.1:"), start.describe());
        recordPids();
        assertEquals(3, pids.size(), "two servers and Cassandra recorded: " + pids);
        assertTrue(Files.isRegularFile(dir.resolve("node-0.log")) && Files.isRegularFile(dir.resolve("node-1.log")));

        ApiCalls api = new ApiCalls(Duration.ofSeconds(60));
        ApiCalls.Reply created = api.post(urls.get(0), "/api/v1/namespaces/default/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"shared\"},\"data\":{\"k\":\"v\"}}");
        assertEquals(201, created.status(), created.toString());
        ApiCalls.Reply read = api.get(urls.get(1), "/api/v1/namespaces/default/configmaps/shared");
        assertEquals(200, read.status(), read.toString());
        assertEquals("v", read.json().path("data").path("k").asText());
        assertEquals(created.json().path("metadata").path("uid"), read.json().path("metadata").path("uid"));

        ProcessResult status = cluster("status", Duration.ofMinutes(1));
        assertEquals(0, status.exitCode(), status.describe());
        assertTrue(status.stdout().contains("node 0: running") && status.stdout().contains("node 1: running")
                && status.stdout().contains("cassandra: running"), status.describe());
        assertEquals(2, status.stdout().lines().filter(l -> l.contains("readyz 200")).count(), status.describe());

        ProcessResult stopped = cluster("stop", STOP_TIMEOUT);
        assertEquals(0, stopped.exitCode(), stopped.describe());
        for (long pid : pids) {
            assertFalse(alive(pid), "pid " + pid + " still runs after stop\n" + stopped.describe());
        }
        assertFalse(Files.exists(dir.resolve("node-0.pid")), "pid files removed");

        ProcessResult after = cluster("status", Duration.ofMinutes(1));
        assertEquals(1, after.exitCode(), after.describe());
        assertTrue(after.stdout().contains("cassandra: not running"), after.describe());
    }

    @Test
    void helpAndUsageErrors() {
        ProcessResult help = Processes.run(List.of(script.toString(), "--help"), null, Map.of(), Duration.ofSeconds(30));
        assertEquals(0, help.exitCode(), help.describe());
        assertTrue(help.stdout().startsWith("Usage: cluster start"), help.describe());
        ProcessResult bad = Processes.run(List.of(script.toString(), "start", "--nodes", "zero"), null, Map.of(),
                Duration.ofSeconds(30));
        assertEquals(2, bad.exitCode(), bad.describe());
        assertTrue(bad.stderr().contains("--nodes"), bad.describe());
    }

    /**
     * The script's free ports are distinct and lie below the kernel's ephemeral range: one inside it can be
     * taken by another process's outgoing connection before the node binds it (a start failed so once).
     */
    private static void assertFreePortsDistinctAndBelowEphemeralRange(ProcessResult start) throws IOException {
        Set<Integer> ports = new HashSet<>();
        Matcher m = PORTS_LINE.matcher(start.stderr());
        while (m.find()) {
            ports.add(Integer.parseInt(m.group(1)));
            ports.add(Integer.parseInt(m.group(2)));
        }
        assertEquals(4, ports.size(), "four distinct ports for two nodes\n" + start.describe());
        if (!Files.isReadable(EPHEMERAL_RANGE)) {
            return;
        }
        int ephemeralLow = Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
        if (ephemeralLow < 12000) {
            return; // no room below it: the script then picks as it always did
        }
        for (int port : ports) {
            assertTrue(port < ephemeralLow, "port " + port + " is in the ephemeral range from " + ephemeralLow
                    + "\n" + start.describe());
        }
    }

    private ProcessResult cluster(String command, Duration timeout, String... args) {
        List<String> line = new ArrayList<>(List.of(script.toString(), command, "--dir", dir.toString()));
        line.addAll(List.of(args));
        // The build running this test has just packaged the server: no rebuild from within it.
        return Processes.run(line, null, Map.of("KUBEPEKKO_SKIP_BUILD", "1"), timeout);
    }

    /** The servers' pids from their pid files and Cassandra's from its state file, as far as they exist. */
    private void recordPids() throws IOException {
        for (int i = 0; i < 2; i++) {
            Path file = dir.resolve("node-" + i + ".pid");
            if (Files.isRegularFile(file)) {
                add(Long.parseLong(Files.readString(file).strip()));
            }
        }
        cassandraPid().ifPresent(this::add);
    }

    private Optional<Long> cassandraPid() throws IOException {
        Path state = dir.resolve("cassandra").resolve("local-cassandra.properties");
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(state)) {
            p.load(in);
        }
        return Optional.of(Long.parseLong(p.getProperty("pid")));
    }

    private void add(long pid) {
        if (!pids.contains(pid)) {
            pids.add(pid);
        }
    }

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
