package io.kubepekko.agent.worker;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.CriRuntime;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.pleg.PodLifecycleEvents;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.testsupport.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What the pod worker tests share: the fake CRI runtime over a unix socket with a manual clock
 * (shared with the fake), a node, the node-wide relist ({@link PodLifecycleEvents}) the workers
 * subscribe to, a status sink and an event recorder; the workers spawned are stopped, the relist
 * and the fake closed, by {@link #close()}.
 */
final class PodWorkerFixture implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(15);

    /** Short, so tests do not wait on the relist or a retry. */
    static final Duration RELIST = Duration.ofMillis(50);

    private static final JsonMapper MAPPER =
            JsonMapper.builder()
                    .enable(
                            JsonReadFeature.ALLOW_SINGLE_QUOTES,
                            JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
                    .build();

    final ActorTestKit kit;
    final ManualClock clock = new ManualClock(Instant.parse("2026-01-02T03:04:05Z"));
    final RecordingSink sink = new RecordingSink();
    final RecordingEvents events = new RecordingEvents();
    final FakeCri fake;
    final CriRuntime cri;

    /**
     * The node the workers run on; a test may give it cgroup hierarchies before it spawns a worker.
     */
    NodeContext node;

    final PodWorkerSettings settings;
    final ActorRef<PodLifecycleEvents.Command> lifecycle;
    private final List<ActorRef<PodWorker.Command>> workers = new CopyOnWriteArrayList<>();

    /** Relisted every {@link #RELIST}. */
    PodWorkerFixture(ActorTestKit kit, Path dir) {
        this(kit, dir, RELIST);
    }

    /**
     * The node-wide relist every {@code relistPeriod} (the workers retry after {@link #RELIST}
     * whatever it is).
     */
    PodWorkerFixture(ActorTestKit kit, Path dir, Duration relistPeriod) {
        this.kit = kit;
        this.fake = FakeCri.start(dir.resolve("cri.sock"), clock);
        this.cri = fake.client();
        this.node =
                new NodeContext(
                        "node-1",
                        dir.resolve("root"),
                        List.of("192.168.1.10"),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30);
        this.settings = PodWorkerSettings.DEFAULT.withRelistPeriod(RELIST);
        this.lifecycle = kit.spawn(PodLifecycleEvents.create(cri, relistPeriod));
    }

    ActorRef<PodWorker.Command> spawn(JsonNode pod) {
        return spawn(pod, PodInputs.NONE, settings);
    }

    ActorRef<PodWorker.Command> spawn(JsonNode pod, PodInputs inputs) {
        return spawn(pod, inputs, settings);
    }

    ActorRef<PodWorker.Command> spawn(JsonNode pod, PodInputs inputs, PodWorkerSettings settings) {
        ActorRef<PodWorker.Command> worker =
                kit.spawn(
                        PodWorker.create(
                                pod, inputs, cri, node, sink, events, clock, settings, lifecycle));
        workers.add(worker);
        return worker;
    }

    /** Terminates {@code worker} with {@code grace} and waits for its reply. */
    PodWorker.Terminated terminate(ActorRef<PodWorker.Command> worker, Duration grace) {
        TestProbe<PodWorker.Terminated> probe = kit.createTestProbe();
        worker.tell(new PodWorker.Terminate(grace, probe.getRef()));
        PodWorker.Terminated terminated = probe.receiveMessage(WAIT);
        probe.expectTerminated(worker, WAIT);
        return terminated;
    }

    ObjectNode awaitLatest(String uid, Predicate<ObjectNode> condition) {
        await().atMost(WAIT).until(() -> sink.latest(uid).filter(condition).isPresent());
        return sink.latest(uid).orElseThrow();
    }

    Container awaitContainer(String name, ContainerState state) {
        await().atMost(WAIT)
                .until(
                        () ->
                                fake.latestContainer(name)
                                        .filter(c -> c.getState() == state)
                                        .isPresent());
        return fake.latestContainer(name).orElseThrow();
    }

    @Override
    public void close() {
        workers.forEach(kit::stop);
        kit.stop(lifecycle);
        fake.close();
    }

    // ---------------------------------------------------------------- pods and statuses

    static JsonNode pod(String name, String uid, String restartPolicy, String specBody) {
        try {
            return MAPPER.readTree(
                    "{apiVersion: 'v1', kind: 'Pod', metadata: {name: '"
                            + name
                            + "', namespace: 'default', uid: '"
                            + uid
                            + "'}, spec: {restartPolicy: '"
                            + restartPolicy
                            + "', nodeName: 'node-1', "
                            + specBody
                            + "}}");
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** The first app container's status. */
    static JsonNode app(JsonNode status) {
        return status.path("containerStatuses").get(0);
    }

    /** The condition of {@code type}, or an empty object. */
    static JsonNode condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return MAPPER.createObjectNode();
    }

    /** Keeps every status sent, per pod uid. */
    static final class RecordingSink implements StatusSink {
        private final Map<String, List<ObjectNode>> sent = new ConcurrentHashMap<>();

        @Override
        public void podStatus(String namespace, String name, String uid, ObjectNode status) {
            sent.computeIfAbsent(uid, k -> new CopyOnWriteArrayList<>()).add(status);
        }

        List<ObjectNode> all(String uid) {
            return List.copyOf(sent.getOrDefault(uid, List.of()));
        }

        Optional<ObjectNode> latest(String uid) {
            List<ObjectNode> list = sent.getOrDefault(uid, List.of());
            return list.isEmpty() ? Optional.empty() : Optional.of(list.get(list.size() - 1));
        }
    }

    /** Keeps every event recorded, as {@code reason|fieldPath|message}. */
    static final class RecordingEvents implements EventSink {
        final List<String> all = new CopyOnWriteArrayList<>();

        @Override
        public void event(
                JsonNode pod, String fieldPath, String type, String reason, String message) {
            all.add(reason + "|" + fieldPath + "|" + message);
        }

        boolean has(String reason, String fieldPath, String message) {
            return all.contains(reason + "|" + fieldPath + "|" + message);
        }
    }
}
