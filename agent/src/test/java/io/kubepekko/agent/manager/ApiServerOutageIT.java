package io.kubepekko.agent.manager;

import static io.kubepekko.agent.manager.TestApi.sync;
import static io.kubepekko.agent.manager.TestApi.yaml;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.cri.CriRuntimeFacts;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.node.NodeAgent;
import io.kubepekko.agent.node.NodeAgentSettings;
import io.kubepekko.agent.node.NodeIdentity;
import io.kubepekko.agent.node.NodeLease;
import io.kubepekko.agent.node.RuntimeHealth;
import io.kubepekko.agent.runtime.NodeContext;
import io.kubepekko.agent.runtime.ResolvConf;
import io.kubepekko.agent.worker.PodWorkerSettings;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The API server goes away under a running agent (pod side and node side, {@link FakeCri} as the
 * runtime) and comes back on the same address with the same data: meanwhile the pods keep running
 * and nothing is restarted; afterwards the status of what changed meanwhile is written, the Lease
 * is renewed again and the pod watch works again.
 */
class ApiServerOutageIT {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final String NODE = "node-outage";
    private static final PodWorkerSettings SETTINGS =
            PodWorkerSettings.DEFAULT
                    .withRelistPeriod(Duration.ofMillis(100))
                    .withBackOff(Duration.ofMillis(10), Duration.ofMillis(20));

    private Path dir;
    private TestApi api;
    private FakeCri fake;
    private ActorTestKit agent;
    private ScheduledExecutorService scheduler;

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.shutdownTestKit();
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        if (fake != null) {
            fake.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void podsKeepRunningWhileTheApiServerIsAwayAndTheirStatusIsWrittenWhenItIsBack()
            throws Exception {
        dir = Files.createTempDirectory("kubepekko-agent-outage-it-");
        api = TestApi.start(dir);
        int port = api.server.port();
        fake = FakeCri.start(dir.resolve("cri.sock"));
        scheduler = Executors.newSingleThreadScheduledExecutor();
        // The agent's own client, as the process has: one address for its whole life, whoever
        // answers there.
        ApiClient client = api.nodeClient(NODE, Duration.ofSeconds(5));
        startAgent(client);

        sync(
                api.client.create(
                        Resource.PODS.collection("default"),
                        yaml(
                                """
                {apiVersion: v1, kind: Pod, metadata: {name: pair}, spec: {nodeName: %s, restartPolicy: Never,
                 containers: [{name: quits, image: '%s', imagePullPolicy: IfNotPresent, command: [sleep, '3600']},
                              {name: stays, image: '%s', imagePullPolicy: IfNotPresent, command: [sleep, '3600']}]}}
                """
                                        .formatted(
                                                NODE,
                                                FakeCri.BUSYBOX_IMAGE,
                                                FakeCri.BUSYBOX_IMAGE))));
        ObjectNode running =
                await().atMost(DEADLINE)
                        .pollInterval(Duration.ofMillis(50))
                        .until(
                                () -> api.pod("pair").orElse(null),
                                p -> p != null && running(p, "quits") && running(p, "stays"));
        await().atMost(DEADLINE)
                .until(
                        () ->
                                api.client
                                        .get(Resource.LEASES.object(NodeLease.NAMESPACE, NODE))
                                        .toCompletableFuture()
                                        .handle((l, t) -> t == null)
                                        .get());

        api.close();
        api = null;
        fake.exitContainer(containerId(running, "quits"), 3);
        // The worker sees the exit while the API server is away (a relist or more after it) and
        // must not restart.
        int relists = fake.calls("ListContainers").size();
        await().atMost(DEADLINE).until(() -> fake.calls("ListContainers").size() >= relists + 5);
        Instant back = Instant.now();
        api = TestApi.start(dir, port);

        ObjectNode after =
                await().atMost(DEADLINE)
                        .pollInterval(Duration.ofMillis(100))
                        .until(
                                () -> api.pod("pair").orElse(null),
                                p ->
                                        p != null
                                                && status(p, "quits")
                                                                .path("state")
                                                                .path("terminated")
                                                                .path("exitCode")
                                                                .asInt()
                                                        == 3);
        JsonNode quits = status(after, "quits").path("state").path("terminated");
        assertEquals("Error", quits.path("reason").asText(), after.toString());
        assertEquals(containerId(running, "stays"), containerId(after, "stays"), after.toString());
        assertEquals("Running", after.path("status").path("phase").asText(), after.toString());
        assertEquals(
                2,
                fake.calls("CreateContainer").size(),
                "nothing was started again: " + fake.calls("CreateContainer"));
        assertEquals(List.of(), fake.calls("StopContainer"), "nothing was stopped");

        // The Lease is renewed again after the outage.
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(200))
                .until(
                        () -> {
                            ObjectNode lease =
                                    sync(
                                            api.client.get(
                                                    Resource.LEASES.object(
                                                            NodeLease.NAMESPACE, NODE)));
                            return Instant.parse(lease.path("spec").path("renewTime").asText())
                                    .isAfter(back);
                        });
        // The pod watch works again: a deletion now reaches the agent, which stops the pod and
        // removes the object.
        sync(api.client.delete(Resource.PODS.object("default", "pair"), DeleteOptions.NONE));
        await().atMost(DEADLINE)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> api.pod("pair").isEmpty());
    }

    private void startAgent(ApiClient client) {
        agent = ActorTestKit.create();
        NodeContext node =
                new NodeContext(
                        NODE,
                        dir.resolve("root"),
                        List.of("192.168.1.10"),
                        List.of(),
                        "",
                        ResolvConf.parse("nameserver 10.0.0.2\n"),
                        8L << 30,
                        4000,
                        8L << 30,
                        100L << 30);
        ActorRef<StatusManager.Command> status =
                agent.spawn(StatusManager.create(client), "status");
        agent.spawn(
                PodManager.create(
                        client,
                        fake.client(),
                        node,
                        status,
                        Clock.systemUTC(),
                        SETTINGS,
                        scheduler),
                "pods");
        NodeAgentSettings settings =
                new NodeAgentSettings(
                        new NodeIdentity(NODE, "linux", "amd64", Map.of(), Optional.empty(), true),
                        true,
                        List.of(InetAddress.getLoopbackAddress()),
                        110,
                        NodeAgentSettings.KUBELET_PORT,
                        "v0.1.0-test",
                        Duration.ofMillis(500),
                        NodeAgentSettings.REPORT_FREQUENCY,
                        Duration.ofMillis(500),
                        RuntimeHealth.KUBELET_THRESHOLD,
                        dir);
        agent.spawn(
                NodeAgent.create(
                        client,
                        new CriRuntimeFacts(fake.client()),
                        settings,
                        agent.spawn(Behaviors.ignore(), "node-events"),
                        Clock.systemUTC()),
                "node");
    }

    private static JsonNode status(JsonNode pod, String container) {
        for (JsonNode c : pod.path("status").path("containerStatuses")) {
            if (container.equals(c.path("name").asText())) {
                return c;
            }
        }
        return MissingNode.getInstance();
    }

    private static boolean running(JsonNode pod, String container) {
        return status(pod, container).path("state").has("running");
    }

    private static String containerId(JsonNode pod, String container) {
        return status(pod, container)
                .path("containerID")
                .asText()
                .substring("containerd://".length());
    }
}
