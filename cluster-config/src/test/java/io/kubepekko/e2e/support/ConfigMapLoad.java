package io.kubepekko.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;

/**
 * Writers creating and updating ConfigMaps in one namespace through several servers in turn, each
 * on a thread of its own, until stopped. Every request is recorded with its outcome (failures too),
 * so a test can tell what was acknowledged, what failed, and what must therefore be stored
 * afterwards.
 *
 * <p>Each writer only updates the objects it created (and whose create was acknowledged), one
 * request after another, setting {@code data.v} to the object's next number: an object's values are
 * written in increasing order, so its stored value must lie between its last acknowledged one and
 * its last attempted one.
 */
public final class ConfigMapLoad implements AutoCloseable {

    /**
     * One request and its outcome.
     *
     * @param writer the writer thread's number
     * @param node the server's URL
     * @param verb create or update
     * @param value the {@code data.v} it sets
     * @param started {@link System#nanoTime()} when it was sent
     * @param ended {@link System#nanoTime()} when its outcome was known
     */
    public record Op(
            int writer,
            int sequence,
            String node,
            String verb,
            String name,
            int value,
            long started,
            long ended,
            ApiCalls.Reply reply) {

        public boolean acknowledged() {
            return reply.ok();
        }

        /** The resourceVersion of the written object, for an acknowledged write. */
        public long resourceVersion() {
            return Long.parseLong(reply.json().path("metadata").path("resourceVersion").asText());
        }

        @Override
        public String toString() {
            return "writer " + writer + " #" + sequence + " " + verb + " " + name + " v=" + value
                    + " via " + node + ": " + reply;
        }
    }

    private final ApiCalls api;
    private final List<String> nodes;
    private final String namespace;
    private final String prefix;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Op> ops = new ArrayList<>(); // guarded by itself

    private ConfigMapLoad(ApiCalls api, List<String> nodes, String namespace, String prefix) {
        this.api = api;
        this.nodes = List.copyOf(nodes);
        this.namespace = namespace;
        this.prefix = prefix;
    }

    /** Starts {@code writers} writers sending requests to {@code nodes} (base URLs) in turn. */
    public static ConfigMapLoad start(
            ApiCalls api, List<String> nodes, String namespace, int writers) {
        return start(api, nodes, namespace, writers, "w");
    }

    /**
     * {@link #start(ApiCalls, List, String, int)} with names that start with {@code prefix}, so
     * that several loads can write to one namespace (compare each with {@link #mine} of the stored
     * objects).
     */
    public static ConfigMapLoad start(
            ApiCalls api, List<String> nodes, String namespace, int writers, String prefix) {
        ConfigMapLoad load = new ConfigMapLoad(api, nodes, namespace, prefix);
        for (int w = 0; w < writers; w++) {
            int writer = w;
            Thread t =
                    new Thread(() -> load.write(writer), "configmap-writer-" + namespace + "-" + w);
            t.setDaemon(true);
            load.threads.add(t);
        }
        load.threads.forEach(Thread::start);
        return load;
    }

    public String collectionPath() {
        return "/api/v1/namespaces/" + namespace + "/configmaps";
    }

    private void write(int writer) {
        List<String> mine = new ArrayList<>(); // acknowledged creates, the update targets
        Map<String, Integer> next = new HashMap<>();
        int created = 0;
        for (int seq = 0; !stop.get(); seq++) {
            String node = nodes.get((writer + seq) % nodes.size());
            long started = System.nanoTime();
            Op op;
            if (seq % 2 == 1 && !mine.isEmpty()) {
                String name = mine.get((seq / 2) % mine.size());
                int value = next.merge(name, 1, Integer::sum);
                ApiCalls.Reply reply =
                        api.mergePatch(
                                node,
                                collectionPath() + "/" + name,
                                "{\"data\":{\"v\":\"" + value + "\"}}");
                op =
                        new Op(
                                writer,
                                seq,
                                node,
                                "update",
                                name,
                                value,
                                started,
                                System.nanoTime(),
                                reply);
            } else {
                String name = prefix + writer + "-" + created++;
                next.put(name, 0);
                ApiCalls.Reply reply =
                        api.post(
                                node,
                                collectionPath(),
                                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
                                        + "\"metadata\":{\"name\":\""
                                        + name
                                        + "\"},\"data\":{\"v\":\"0\",\"writer\":\""
                                        + writer
                                        + "\"}}");
                op =
                        new Op(
                                writer,
                                seq,
                                node,
                                "create",
                                name,
                                0,
                                started,
                                System.nanoTime(),
                                reply);
                if (reply.ok()) {
                    mine.add(name);
                }
            }
            synchronized (ops) {
                ops.add(op);
            }
        }
    }

    /** Every request so far, in the order their outcomes were known. */
    public List<Op> ops() {
        synchronized (ops) {
            return List.copyOf(ops);
        }
    }

    /**
     * How many requests were acknowledged among those sent at or after {@code since} ({@link
     * System#nanoTime()}).
     */
    public long acknowledgedSince(long since) {
        return ops().stream().filter(o -> o.started() >= since && o.acknowledged()).count();
    }

    /**
     * How many requests to {@code node} were acknowledged among those sent at or after {@code
     * since}.
     */
    public long acknowledgedSince(long since, String node) {
        return ops().stream()
                .filter(o -> o.started() >= since && o.acknowledged() && o.node().equals(node))
                .count();
    }

    /** Stops the writers and waits for each one's request in flight to end. */
    public void stop() {
        stop.set(true);
        for (Thread t : threads) {
            try {
                t.join(Duration.ofMinutes(3).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** The objects of {@code stored} that this load names. */
    public Map<String, JsonNode> mine(Map<String, JsonNode> stored) {
        Map<String, JsonNode> mine = new TreeMap<>();
        stored.forEach(
                (name, object) -> {
                    if (name.matches(Pattern.quote(prefix) + "[0-9]+-[0-9]+")) {
                        mine.put(name, object);
                    }
                });
        return mine;
    }

    /**
     * What went wrong in {@code stored} (name to the object as a server lists it) against the
     * record: an acknowledged create missing, a value older than the last acknowledged one or never
     * attempted, a resourceVersion older than the last acknowledged one's, an object no writer
     * attempted. Empty when the store is consistent with every acknowledgement.
     */
    public List<String> inconsistencies(Map<String, JsonNode> stored) {
        Map<String, List<Op>> byName = new TreeMap<>();
        for (Op op : ops()) {
            byName.computeIfAbsent(op.name(), n -> new ArrayList<>()).add(op);
        }
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<Op>> entry : byName.entrySet()) {
            String name = entry.getKey();
            List<Op> history = entry.getValue();
            Op lastAck = history.stream().filter(Op::acknowledged).reduce((a, b) -> b).orElse(null);
            int maxAttempted = history.stream().mapToInt(Op::value).max().orElse(0);
            JsonNode object = stored.get(name);
            if (object == null) {
                if (lastAck != null) {
                    problems.add(name + " is missing, but was acknowledged: " + lastAck);
                }
                continue;
            }
            int value = Integer.parseInt(object.path("data").path("v").asText("-1"));
            long rv = Long.parseLong(object.path("metadata").path("resourceVersion").asText());
            if (lastAck != null && value < lastAck.value()) {
                problems.add(name + " has v=" + value + ", older than the acknowledged " + lastAck);
            }
            if (value > maxAttempted || value < 0) {
                problems.add(
                        name
                                + " has v="
                                + value
                                + ", which no request set (last attempted "
                                + maxAttempted
                                + ")");
            }
            if (lastAck != null && rv < lastAck.resourceVersion()) {
                problems.add(
                        name
                                + " has resourceVersion "
                                + rv
                                + ", older than the acknowledged "
                                + lastAck);
            }
        }
        for (String name : stored.keySet()) {
            // kube-root-ca.crt: the root CA publisher's, in every namespace as kube keeps it.
            if (!byName.containsKey(name) && !name.equals("kube-root-ca.crt")) {
                problems.add(name + " is stored, but no writer attempted it");
            }
        }
        return problems;
    }
}
