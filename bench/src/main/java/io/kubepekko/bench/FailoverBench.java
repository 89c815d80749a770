package io.kubepekko.bench;

import io.kubepekko.http.security.Pki;
import io.kubepekko.persistence.cassandra.LocalCassandra;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * How long writes stop when a server of a cluster dies: a local Cassandra and N servers, one writer
 * per namespace creating ConfigMaps through the live servers in turn, then {@code kill -9} of one
 * server at a time. The gap of a kill is the time from the kill until every namespace has had a
 * create succeed again (the slowest namespace: one whose collection, or whose kind's sequencer, was
 * on the dead server). The dead server is started again only after that, so it cannot shorten the
 * gap by rejoining, and the next kill waits until every server is ready and writes flow. At the end
 * every acknowledged create is looked for: a lost one is counted. Run it with {@code bench/failover
 * --help}.
 */
public final class FailoverBench {

    /**
     * One kill: which server, and when each namespace wrote again (ms after the kill; -1: never).
     */
    record Kill(int victim, long[] namespaceGapsMillis) {
        long gapMillis() {
            return Arrays.stream(namespaceGapsMillis).anyMatch(g -> g < 0)
                    ? -1
                    : Arrays.stream(namespaceGapsMillis).max().orElse(0);
        }
    }

    private final FailoverOptions options;

    /** Trusts the cluster's server CA and presents an admin certificate; once server 0 is up. */
    private HttpClient http;

    private final List<URI> urls = new ArrayList<>();

    /** Servers not to send to (killed and not ready again). */
    private final Set<Integer> down = ConcurrentHashMap.newKeySet();

    /** Per namespace: System.nanoTime() of the last successful create. */
    private AtomicLongArray lastSuccess;

    private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
    private final AtomicLong failures = new AtomicLong();
    private volatile boolean writing = true;

    private FailoverBench(FailoverOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        FailoverOptions options =
                BenchFlags.parseOrExit(args, FailoverOptions::parse, FailoverOptions.USAGE);
        String command =
                System.getProperty("bench.command", "FailoverBench " + String.join(" ", args));
        try {
            new FailoverBench(options).run(command);
        } catch (IOException e) {
            System.err.println("bench: " + e.getMessage());
            System.exit(1);
        }
    }

    private void run(String command) throws Exception {
        String loadAtStart = Report.loadAverage();
        Path cassandraDir = Files.createTempDirectory("bench-cassandra-");
        LocalCassandra cassandra =
                LocalCassandra.start(
                        cassandraDir,
                        LocalCassandra.Options.defaults().withCacheDir(options.cassandraCache()));
        List<ServerProcess> servers = Collections.synchronizedList(new ArrayList<>());
        List<Path> dataDirs = Collections.synchronizedList(new ArrayList<>());
        // Stopped on Ctrl-C or SIGTERM too (the servers would outlive the benchmark), and once
        // only.
        AtomicBoolean stopped = new AtomicBoolean();
        AutoCloseable stopAll =
                Processes.closeOnExit(
                        () -> {
                            if (!stopped.compareAndSet(false, true)) {
                                return;
                            }
                            writing = false;
                            List<ServerProcess> running;
                            synchronized (servers) {
                                running = new ArrayList<>(servers);
                            }
                            for (int i = running.size() - 1; i >= 0; i--) {
                                Processes.killTree(
                                        running.get(i).process(), Duration.ofSeconds(15));
                            }
                            synchronized (dataDirs) {
                                dataDirs.forEach(Processes::deleteTree);
                            }
                            cassandra.stop();
                            Processes.deleteTree(cassandraDir);
                        });
        List<List<String>> flags = new ArrayList<>();
        List<Integer> httpPorts = new ArrayList<>();
        List<Kill> kills = new ArrayList<>();
        try {
            String keyspace = "failover_" + Long.toString(System.currentTimeMillis(), 36);
            List<Integer> clusterPorts = new ArrayList<>();
            for (int i = 0; i < options.nodes(); i++) {
                clusterPorts.add(Processes.freePort());
                httpPorts.add(Processes.freePort());
            }
            // Every server names all as seeds, so that any of them can be restarted and join the
            // others.
            String seeds =
                    clusterPorts.stream()
                            .map(p -> "127.0.0.1:" + p)
                            .collect(Collectors.joining(","));
            for (int i = 0; i < options.nodes(); i++) {
                dataDirs.add(Files.createTempDirectory("bench-failover-" + i + "-"));
                if (i > 0) {
                    // server 0 created the cluster's CAs and service-account key: every server
                    // serves and trusts the same ones
                    Pki.share(dataDirs.get(0), dataDirs.get(i));
                }
                flags.add(
                        List.of(
                                "--storage=cassandra",
                                "--cassandra-contact-points=" + cassandra.contactPoint(),
                                "--cassandra-keyspace=" + keyspace,
                                "--cluster-seed-nodes=" + seeds,
                                "--cluster-port=" + clusterPorts.get(i)));
                servers.add(
                        ServerProcess.start(
                                options.apiserver(),
                                dataDirs.get(i),
                                httpPorts.get(i),
                                flags.get(i),
                                options.startTimeout(),
                                logFile(i)));
                urls.add(servers.get(i).url());
            }
            Endpoint admin = servers.get(0).endpoint();
            // HTTP/1.1 as the bench's own clients speak it (the JDK client would ask for h2)
            http =
                    HttpClient.newBuilder()
                            .version(HttpClient.Version.HTTP_1_1)
                            .connectTimeout(Duration.ofSeconds(2))
                            .sslContext(admin.tls())
                            .build();
            for (URI url : urls) {
                Processes.awaitHttp(
                        admin.at(url),
                        "/readyz",
                        r -> r.status() == 200,
                        null,
                        options.startTimeout());
            }
            lastSuccess = new AtomicLongArray(options.namespaces());
            for (int n = 0; n < options.namespaces(); n++) {
                createNamespace(n);
            }
            List<Thread> writers = new ArrayList<>();
            for (int n = 0; n < options.namespaces(); n++) {
                int ns = n;
                Thread t = new Thread(() -> write(ns), "writer-" + n);
                t.setDaemon(true);
                t.start();
                writers.add(t);
            }
            awaitAllWriting(System.nanoTime(), options.startTimeout());
            for (int k = 0; k < options.kills(); k++) {
                Thread.sleep(options.settle().toMillis());
                int victim = (k + 1) % options.nodes();
                down.add(victim);
                long killedAt = System.nanoTime();
                ProcessHandle.of(servers.get(victim).pid())
                        .ifPresent(ProcessHandle::destroyForcibly);
                long[] gaps = awaitAllWriting(killedAt, options.gapTimeout());
                Kill kill = new Kill(victim, gaps);
                kills.add(kill);
                System.err.printf(
                        Locale.ROOT,
                        "bench: kill %d of server %d: writes back in every namespace after %s%n",
                        k + 1,
                        victim,
                        kill.gapMillis() < 0 ? "(never)" : kill.gapMillis() + " ms");
                servers.set(
                        victim,
                        ServerProcess.start(
                                options.apiserver(),
                                dataDirs.get(victim),
                                httpPorts.get(victim),
                                flags.get(victim),
                                options.startTimeout(),
                                logFile(victim)));
                down.remove(victim);
            }
            writing = false;
            for (Thread t : writers) {
                t.join(options.requestTimeout().toMillis() * 2);
            }
            long lost = countLost();
            Report.print(markdown(command, loadAtStart, kills, lost), options.out());
        } finally {
            stopAll.close();
        }
    }

    private Path logFile(int node) throws IOException {
        if (options.logs() == null) {
            return null;
        }
        Files.createDirectories(options.logs());
        return options.logs().resolve("node-" + node + ".log");
    }

    /** Waits until every namespace has written after {@code since}; the gap of each, in ms. */
    private long[] awaitAllWriting(long since, Duration timeout) throws InterruptedException {
        long deadline = since + timeout.toNanos();
        long[] gaps = new long[options.namespaces()];
        Arrays.fill(gaps, -1);
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (int n = 0; n < gaps.length; n++) {
                long at = lastSuccess.get(n);
                if (gaps[n] < 0 && at > since) {
                    gaps[n] = (at - since) / 1_000_000;
                }
                all &= gaps[n] >= 0;
            }
            if (all) {
                return gaps;
            }
            Thread.sleep(20);
        }
        return gaps;
    }

    private static String namespace(int n) {
        return "failover-" + n;
    }

    private void createNamespace(int n) throws IOException, InterruptedException {
        String body =
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
                        + namespace(n)
                        + "\"}}";
        HttpResponse<String> r =
                post(urls.get(0), "/api/v1/namespaces", body, Duration.ofSeconds(30));
        if (r.statusCode() != 201 && r.statusCode() != 409) {
            throw new IOException(
                    "creating namespace "
                            + namespace(n)
                            + ": HTTP "
                            + r.statusCode()
                            + " "
                            + r.body());
        }
    }

    /** One namespace's writer: creates through the live servers in turn until the run ends. */
    private void write(int n) {
        long seq = 0;
        int turn = n;
        while (writing) {
            int server = turn++ % urls.size();
            if (down.contains(server)) {
                continue;
            }
            String name = "w-" + n + "-" + seq++;
            String body =
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                            + name
                            + "\"},\"data\":{\"k\":\""
                            + seq
                            + "\"}}";
            try {
                HttpResponse<String> r =
                        post(
                                urls.get(server),
                                "/api/v1/namespaces/" + namespace(n) + "/configmaps",
                                body,
                                options.requestTimeout());
                if (r.statusCode() == 201) {
                    acknowledged.put(namespace(n) + "/" + name, 1L);
                    lastSuccess.set(n, System.nanoTime());
                } else {
                    failures.incrementAndGet();
                }
            } catch (IOException e) {
                failures.incrementAndGet();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private HttpResponse<String> post(URI base, String path, String body, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest request =
                HttpRequest.newBuilder(base.resolve(path))
                        .timeout(timeout)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Acknowledged creates that no server lists afterwards. */
    private long countLost() throws IOException, InterruptedException {
        Set<String> listed = new HashSet<>();
        for (int n = 0; n < options.namespaces(); n++) {
            HttpRequest request =
                    HttpRequest.newBuilder(
                                    urls.get(n % urls.size())
                                            .resolve(
                                                    "/api/v1/namespaces/"
                                                            + namespace(n)
                                                            + "/configmaps"))
                            .timeout(Duration.ofSeconds(60))
                            .build();
            String body = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = Pattern.compile("\"name\":\"(w-[0-9]+-[0-9]+)\"").matcher(body);
            while (m.find()) {
                listed.add(namespace(n) + "/" + m.group(1));
            }
        }
        return acknowledged.keySet().stream().filter(k -> !listed.contains(k)).count();
    }

    private String markdown(String command, String loadAtStart, List<Kill> kills, long lost) {
        List<Long> gaps = kills.stream().map(Kill::gapMillis).sorted().toList();
        StringBuilder md = new StringBuilder();
        md.append("## Failover: writes back after kill -9 of a server ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(Report.machine(loadAtStart)).append('\n');
        md.append("- ")
                .append(options.nodes())
                .append(" servers and one local Cassandra on this machine; ")
                .append(options.namespaces())
                .append(" writers, one per namespace, creating ConfigMaps through the ")
                .append(
                        "live servers in turn; the gap of a kill: until every namespace has written again\n\n");
        md.append(
                "| kill | server | gap (slowest namespace) | fastest namespace |\n|---:|---:|---:|---:|\n");
        for (int k = 0; k < kills.size(); k++) {
            Kill kill = kills.get(k);
            md.append("| ")
                    .append(k + 1)
                    .append(" | ")
                    .append(kill.victim())
                    .append(" | ")
                    .append(
                            kill.gapMillis() < 0
                                    ? "never"
                                    : String.format(
                                            Locale.ROOT, "%.1f s", kill.gapMillis() / 1000.0))
                    .append(" | ")
                    .append(
                            String.format(
                                    Locale.ROOT,
                                    "%.1f s",
                                    Arrays.stream(kill.namespaceGapsMillis()).min().orElse(0)
                                            / 1000.0))
                    .append(" |\n");
        }
        long p50 = gaps.isEmpty() ? 0 : gaps.get((gaps.size() - 1) / 2);
        long max = gaps.isEmpty() ? 0 : gaps.get(gaps.size() - 1);
        md.append(
                String.format(
                        Locale.ROOT,
                        "%nGap p50 %.1f s, max %.1f s over %d kills; %d creates acknowledged, "
                                + "%d lost, %d failed or timed out (expected while a server is down).%n",
                        p50 / 1000.0,
                        max / 1000.0,
                        kills.size(),
                        acknowledged.size(),
                        lost,
                        failures.get()));
        return md.toString();
    }
}
