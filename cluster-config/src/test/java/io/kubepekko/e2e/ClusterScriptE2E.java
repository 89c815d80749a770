package io.kubepekko.e2e;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kubepekko.e2e.support.ApiCalls;
import io.kubepekko.e2e.support.ClientBinaries;
import io.kubepekko.e2e.support.ClientTls;
import io.kubepekko.e2e.support.Kubectl;
import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RepositoryRoot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cluster-config/bin/cluster}: start a three-node cluster on loopback, write through one
 * node and read through another, each with the other node's admin kubeconfig (the nodes share their
 * CAs), see it in {@code status}, stop it one node at a time, and find no process of it left and no
 * warning in the nodes' logs. A two-node cluster outlives a restart of its Cassandra with {@code
 * cluster-config/bin/cassandra}, as docs/operations.md tells. (Each cluster start costs a Cassandra
 * and a JVM per node: the tests share what they can.)
 */
class ClusterScriptE2E {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(6);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(3);
    private static final Pattern NODE_LINE =
            Pattern.compile("node (\\d+): (https://127\\.0\\.0\\.1:\\d+)  kubeconfig (\\S+)");
    private static final Pattern PORTS_LINE =
            Pattern.compile("node \\d+: pid \\d+, https (\\d+), cluster (\\d+)");
    private static final Pattern CASSANDRA_LINE =
            Pattern.compile("cassandra: 127\\.0\\.0\\.1:(\\d+) ");

    /** A line the nodes' logback pattern starts with a level above INFO. */
    private static final Pattern WARNING =
            Pattern.compile("^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} (WARN|ERROR) ");

    /**
     * How long writes may take to come back once Cassandra is up again; "within seconds" on a quiet
     * machine.
     */
    private static final Duration WRITES_BACK_TIMEOUT = Duration.ofMinutes(2);

    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private final Path script = RepositoryRoot.find().resolve("cluster-config/bin/cluster");
    private final Path cassandraScript =
            RepositoryRoot.find().resolve("cluster-config/bin/cassandra");

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

    /**
     * Three nodes that share objects and CAs; then {@code cluster stop} stops them one at a time,
     * youngest first, each leaving the cluster and handing its shards to members that stay (the
     * first to two, the second to one, the last to none): every process ends, and no node logs a
     * warning while stopping (no hand-over or shutdown phase timing out).
     */
    @Test
    void startsThreeNodesThatShareObjectsAndStopsThemOneAtATimeLeavingNoProcessAndNoWarning()
            throws IOException {
        started = true;
        ProcessResult start = cluster("start", START_TIMEOUT, "--nodes", "3");
        assertEquals(0, start.exitCode(), start.describe());
        List<String> urls = new ArrayList<>();
        List<Path> kubeconfigs = new ArrayList<>();
        Matcher m = NODE_LINE.matcher(start.stdout());
        while (m.find()) {
            assertEquals(urls.size(), Integer.parseInt(m.group(1)), start.describe());
            urls.add(m.group(2));
            kubeconfigs.add(Path.of(m.group(3)));
            assertTrue(
                    Files.isRegularFile(Path.of(m.group(3))),
                    "kubeconfig " + m.group(3) + "\n" + start.describe());
        }
        assertEquals(3, urls.size(), start.describe());
        assertEquals(
                List.of(
                        dir.resolve("node-0/admin.kubeconfig"),
                        dir.resolve("node-1/admin.kubeconfig"),
                        dir.resolve("node-2/admin.kubeconfig")),
                kubeconfigs,
                start.describe());
        assertFreePortsDistinctAndBelowEphemeralRange(start, 3);
        assertTrue(start.stdout().contains("cassandra: 127.0.0.1:"), start.describe());
        recordPids();
        assertEquals(4, pids.size(), "three servers and Cassandra recorded: " + pids);
        assertTrue(
                Files.isRegularFile(dir.resolve("node-0.log"))
                        && Files.isRegularFile(dir.resolve("node-1.log"))
                        && Files.isRegularFile(dir.resolve("node-2.log")));

        // Each node's admin kubeconfig works against the other node: one server CA, one client CA.
        ApiCalls asAdminOfNode0 =
                new ApiCalls(Duration.ofSeconds(60), ClientTls.fromKubeconfig(kubeconfigs.get(0)));
        ApiCalls asAdminOfNode1 =
                new ApiCalls(Duration.ofSeconds(60), ClientTls.fromKubeconfig(kubeconfigs.get(1)));
        ApiCalls.Reply created =
                asAdminOfNode1.post(
                        urls.get(0),
                        "/api/v1/namespaces/default/configmaps",
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"shared\"},\"data\":{\"k\":\"v\"}}");
        assertEquals(201, created.status(), created.toString());
        ApiCalls.Reply read =
                asAdminOfNode0.get(urls.get(1), "/api/v1/namespaces/default/configmaps/shared");
        assertEquals(200, read.status(), read.toString());
        assertEquals("v", read.json().path("data").path("k").asText());
        assertEquals(
                created.json().path("metadata").path("uid"),
                read.json().path("metadata").path("uid"));

        ProcessResult status = cluster("status", Duration.ofMinutes(1));
        assertEquals(0, status.exitCode(), status.describe());
        assertTrue(
                status.stdout().contains("node 0: running")
                        && status.stdout().contains("node 1: running")
                        && status.stdout().contains("node 2: running")
                        && status.stdout().contains("cassandra: running"),
                status.describe());
        List<String> statusLines = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            statusLines.add(
                    "node "
                            + i
                            + ": running (pid "
                            + recordedPid(i)
                            + ") "
                            + urls.get(i)
                            + " readyz 200 kubeconfig "
                            + kubeconfigs.get(i));
        }
        assertEquals(
                statusLines,
                status.stdout().lines().filter(l -> l.startsWith("node ")).toList(),
                status.describe());
        kubectlReadsThroughEachNodeWithTheOthersKubeconfig(urls, kubeconfigs);

        ApiCalls api = new ApiCalls(Duration.ofSeconds(60), admin());
        for (int i = 0; i < urls.size(); i++) {
            // A write through each node: collections, sequencers and their shards in use across the
            // cluster when it stops.
            ApiCalls.Reply written =
                    api.post(
                            urls.get(i),
                            "/api/v1/namespaces/default/configmaps",
                            configMap("cm-" + i));
            assertEquals(201, written.status(), written.toString());
        }

        ProcessResult stopped = stopQuietly();
        assertEquals(
                List.of("stopping node 2", "stopping node 1", "stopping node 0"),
                stopped.stderr()
                        .lines()
                        .filter(l -> l.startsWith("stopping node"))
                        .map(l -> l.replaceAll(" \\(pid \\d+\\)", ""))
                        .toList(),
                "youngest first\n" + stopped.describe());
        assertFalse(Files.exists(dir.resolve("node-0.pid")), "pid files removed");

        ProcessResult after = cluster("status", Duration.ofMinutes(1));
        assertEquals(1, after.exitCode(), after.describe());
        assertTrue(after.stdout().contains("cassandra: not running"), after.describe());
    }

    /**
     * What docs/operations.md tells a user: stop Cassandra under running servers with {@code
     * bin/cassandra stop}, start it again with {@code bin/cassandra start} on the same data
     * directory. It comes back on its CQL port, where the servers look for it, and a create
     * succeeds through every node again. (Two nodes: {@code --nodes} other than its default.)
     */
    @Test
    void cassandraRestartedUnderTwoNodesComesBackOnItsPortAndWritesResumeThroughEveryNode()
            throws IOException {
        started = true;
        ProcessResult start = cluster("start", START_TIMEOUT, "--nodes", "2");
        assertEquals(0, start.exitCode(), start.describe());
        List<String> urls = urls(start);
        assertEquals(2, urls.size(), start.describe());
        Matcher cql = CASSANDRA_LINE.matcher(start.stdout());
        assertTrue(cql.find(), start.describe());
        String cqlPort = cql.group(1);
        recordPids();

        ApiCalls api = new ApiCalls(Duration.ofSeconds(60), admin());
        ApiCalls.Reply before =
                api.post(urls.get(0), "/api/v1/namespaces/default/configmaps", configMap("before"));
        assertEquals(201, before.status(), before.toString());

        Path cassandraDir = dir.resolve("cassandra");
        ProcessResult stop = cassandra("stop", cassandraDir);
        assertEquals(0, stop.exitCode(), stop.describe());
        ProcessResult again = cassandra("start", cassandraDir);
        assertEquals(0, again.exitCode(), again.describe());
        assertEquals(
                cqlPort,
                again.stdoutText(),
                "Cassandra is back on its CQL port\n" + again.describe());
        recordPids();

        // Short requests, so a poll that meets the outage's 503/504 (or its wait) is soon followed
        // by another.
        ApiCalls polls = new ApiCalls(Duration.ofSeconds(15), admin());
        AtomicInteger attempt = new AtomicInteger();
        for (String url : urls) {
            AtomicReference<ApiCalls.Reply> last = new AtomicReference<>();
            try {
                await().atMost(WRITES_BACK_TIMEOUT)
                        .pollInterval(Duration.ofMillis(500))
                        .until(
                                () -> {
                                    // A fresh name each time: an earlier attempt may have been
                                    // stored after its client gave up.
                                    last.set(
                                            polls.post(
                                                    url,
                                                    "/api/v1/namespaces/default/configmaps",
                                                    configMap(
                                                            "after-" + attempt.incrementAndGet())));
                                    return last.get().status() == 201;
                                });
            } catch (ConditionTimeoutException e) {
                fail(
                        "no create through "
                                + url
                                + " succeeded after Cassandra's restart; the last answer: "
                                + last.get());
            }
        }
        ApiCalls.Reply read = api.get(urls.get(1), "/api/v1/namespaces/default/configmaps/before");
        assertEquals(200, read.status(), read.toString());

        // Not stopQuietly: a shard hand-over (a rebalance after the start) caught by the outage can
        // still be
        // waiting out Pekko's hand-off timeout, and the stop's hand-overs then wait for it.
        ProcessResult stopped = cluster("stop", STOP_TIMEOUT);
        assertEquals(0, stopped.exitCode(), stopped.describe());
        for (long pid : pids) {
            assertFalse(alive(pid), "pid " + pid + " still runs after stop\n" + stopped.describe());
        }
    }

    /**
     * The real kubectl (Go's TLS: the CAs the script made with openssl, the certificates each node
     * issued from them) with one node's kubeconfig against the other node.
     */
    private void kubectlReadsThroughEachNodeWithTheOthersKubeconfig(
            List<String> urls, List<Path> kubeconfigs) throws IOException {
        Path home = Files.createDirectories(dir.resolve("kubectl-home"));
        for (int i = 0; i < 2; i++) {
            ProcessResult got =
                    new Kubectl(
                                    ClientBinaries.require().kubectl(),
                                    kubeconfigs.get(1 - i),
                                    home,
                                    home)
                            .run(
                                    "--server",
                                    urls.get(i),
                                    "get",
                                    "configmap",
                                    "shared",
                                    "-o",
                                    "jsonpath={.data.k}");
            assertEquals(0, got.exitCode(), got.describe());
            assertEquals("v", got.stdout(), got.describe());
        }
    }

    @Test
    void helpAndUsageErrors() {
        ProcessResult help =
                Processes.run(
                        List.of(script.toString(), "--help"),
                        null,
                        Map.of(),
                        Duration.ofSeconds(30));
        assertEquals(0, help.exitCode(), help.describe());
        assertTrue(help.stdout().startsWith("Usage: cluster start"), help.describe());
        ProcessResult bad =
                Processes.run(
                        List.of(script.toString(), "start", "--nodes", "zero"),
                        null,
                        Map.of(),
                        Duration.ofSeconds(30));
        assertEquals(2, bad.exitCode(), bad.describe());
        assertTrue(bad.stderr().contains("--nodes"), bad.describe());
    }

    /**
     * The script's free ports are distinct and lie below the kernel's ephemeral range: one inside
     * it can be taken by another process's outgoing connection before the node binds it (a start
     * failed so once).
     */
    private static void assertFreePortsDistinctAndBelowEphemeralRange(
            ProcessResult start, int nodes) throws IOException {
        Set<Integer> ports = new HashSet<>();
        Matcher m = PORTS_LINE.matcher(start.stderr());
        while (m.find()) {
            ports.add(Integer.parseInt(m.group(1)));
            ports.add(Integer.parseInt(m.group(2)));
        }
        assertEquals(
                2 * nodes,
                ports.size(),
                "two distinct ports for each of " + nodes + " nodes\n" + start.describe());
        if (!Files.isReadable(EPHEMERAL_RANGE)) {
            return;
        }
        int ephemeralLow =
                Integer.parseInt(Files.readString(EPHEMERAL_RANGE).trim().split("\\s+")[0]);
        if (ephemeralLow < 12000) {
            return; // no room below it: the script then picks as it always did
        }
        for (int port : ports) {
            assertTrue(
                    port < ephemeralLow,
                    "port "
                            + port
                            + " is in the ephemeral range from "
                            + ephemeralLow
                            + "\n"
                            + start.describe());
        }
    }

    /**
     * {@code cluster stop}, then: it succeeded, no recorded process runs, and no node logged a line
     * above INFO while it stopped (a hand-over or shutdown phase timing out, a member seen
     * unreachable).
     */
    private ProcessResult stopQuietly() throws IOException {
        recordPids();
        Map<Path, Long> logSizes = new LinkedHashMap<>();
        try (Stream<Path> logs = Files.list(dir)) {
            for (Path log :
                    logs.filter(p -> p.getFileName().toString().matches("node-\\d+\\.log"))
                            .sorted()
                            .toList()) {
                logSizes.put(log, Files.size(log));
            }
        }
        ProcessResult stopped = cluster("stop", STOP_TIMEOUT);
        assertEquals(0, stopped.exitCode(), stopped.describe());
        for (long pid : pids) {
            assertFalse(alive(pid), "pid " + pid + " still runs after stop\n" + stopped.describe());
        }
        List<String> warnings = new ArrayList<>();
        for (Map.Entry<Path, Long> log : logSizes.entrySet()) {
            String written;
            try (InputStream in = Files.newInputStream(log.getKey())) {
                in.skipNBytes(log.getValue());
                written = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            written.lines()
                    .filter(l -> WARNING.matcher(l).find())
                    .forEach(l -> warnings.add(log.getKey().getFileName() + ": " + l));
        }
        assertEquals(List.of(), warnings, "the nodes logged while stopping\n" + stopped.describe());
        return stopped;
    }

    private String recordedPid(int node) throws IOException {
        return Files.readString(dir.resolve("node-" + node + ".pid")).strip();
    }

    /** The admin of node 0's kubeconfig: an admin of every node. */
    private ClientTls admin() {
        return ClientTls.fromKubeconfig(dir.resolve("node-0/admin.kubeconfig"));
    }

    private static List<String> urls(ProcessResult start) {
        List<String> urls = new ArrayList<>();
        Matcher m = NODE_LINE.matcher(start.stdout());
        while (m.find()) {
            urls.add(m.group(2));
        }
        return urls;
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                + name
                + "\"},\"data\":{\"k\":\"v\"}}";
    }

    private ProcessResult cassandra(String command, Path dataDir) {
        return Processes.run(
                List.of(cassandraScript.toString(), command, "--data-dir", dataDir.toString()),
                null,
                Map.of("KUBEPEKKO_SKIP_BUILD", "1"),
                START_TIMEOUT);
    }

    private ProcessResult cluster(String command, Duration timeout, String... args) {
        List<String> line =
                new ArrayList<>(List.of(script.toString(), command, "--dir", dir.toString()));
        line.addAll(List.of(args));
        // The build running this test has just packaged the server: no rebuild from within it.
        return Processes.run(line, null, Map.of("KUBEPEKKO_SKIP_BUILD", "1"), timeout);
    }

    /**
     * The servers' pids from their pid files and Cassandra's from its state file, as far as they
     * exist.
     */
    private void recordPids() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file :
                    files.filter(p -> p.getFileName().toString().matches("node-\\d+\\.pid"))
                            .toList()) {
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

    /**
     * Whether the process runs. One that has exited but is not reaped yet (a zombie: the script's
     * servers and Cassandra are reaped by pid 1, which may take seconds) does not; the JDK would
     * count it alive.
     */
    private static boolean alive(long pid) {
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int end = stat.lastIndexOf(')'); // "pid (command) state ..."
            return end < 0 || stat.length() <= end + 2 || stat.charAt(end + 2) != 'Z';
        } catch (IOException e) {
            return ProcessHandle.of(pid)
                    .map(ProcessHandle::isAlive)
                    .orElse(false); // gone meanwhile, or no /proc
        }
    }
}
