package io.kubepekko.agent.worker;

import static io.kubepekko.agent.worker.PodWorkerFixture.app;
import static io.kubepekko.agent.worker.PodWorkerFixture.pod;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.cri.FakeCri;
import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ListContainersRequest;
import io.kubepekko.agent.pleg.PodLifecycleEvents;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workers learn what happened in the runtime behind their back from the node-wide relist ({@link
 * PodLifecycleEvents}) and do not relist their pods on their own. The relist's timer is an hour
 * here: it lists only when the test says.
 */
class NodeWideRelistTest {

    private static final ActorTestKit KIT = ActorTestKit.create();
    private static final Duration WAIT = PodWorkerFixture.WAIT;

    @TempDir Path dir;

    private PodWorkerFixture f;

    @BeforeEach
    void start() {
        f = new PodWorkerFixture(KIT, dir, Duration.ofHours(1));
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @AfterAll
    static void shutdown() {
        KIT.shutdownTestKit();
    }

    @Test
    void aContainerExitingBehindTheWorkersBackIsNoticedThroughTheNodeWideRelist() {
        f.spawn(
                pod(
                        "job",
                        "u1",
                        "Never",
                        "containers: [{name: 'app', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"));
        f.spawn(
                pod(
                        "other",
                        "u2",
                        "Never",
                        "containers: [{name: 'side', image: '"
                                + FakeCri.BUSYBOX_IMAGE
                                + "',"
                                + " imagePullPolicy: 'IfNotPresent'}]"));
        f.awaitLatest("u1", s -> s.path("phase").asText().equals("Running"));
        f.awaitLatest("u2", s -> s.path("phase").asText().equals("Running"));
        // The first listing tells every pod; each relists its own. From here on only changes are
        // told.
        int u1 = podRelists("u1");
        int u2 = podRelists("u2");
        relist();
        await().atMost(WAIT).until(() -> podRelists("u1") > u1 && podRelists("u2") > u2);

        Container c = f.fake.latestContainer("app").orElseThrow();
        f.fake.clearCalls();
        f.fake.exitContainer(c.getId(), 0);
        relist();

        ObjectNode done = f.awaitLatest("u1", s -> s.path("phase").asText().equals("Succeeded"));
        assertEquals(
                "Completed", app(done).path("state").path("terminated").path("reason").asText());
        relist(); // nothing changed since: nobody is told, nobody relists
        assertEquals(List.of("u1"), podRelists(), "only the pod that changed relisted, once");
    }

    /** Has the node-wide relist list the runtime now and waits until it did. */
    private void relist() {
        long before = nodeListings();
        f.lifecycle.tell(PodLifecycleEvents.Relist.INSTANCE);
        await().atMost(WAIT).until(() -> nodeListings() > before);
    }

    private long nodeListings() {
        return f.fake.calls("ListContainers").stream()
                .filter(
                        call ->
                                ((ListContainersRequest) call.request())
                                                .getFilter()
                                                .getLabelSelectorCount()
                                        == 0)
                .count();
    }

    private int podRelists(String uid) {
        return (int) podRelists().stream().filter(uid::equals).count();
    }

    /** The pod uids of the workers' own (filtered) container listings, in order. */
    private List<String> podRelists() {
        return f.fake.calls("ListContainers").stream()
                .map(call -> ((ListContainersRequest) call.request()).getFilter())
                .filter(filter -> filter.getLabelSelectorCount() > 0)
                .map(filter -> filter.getLabelSelectorOrDefault(SandboxConfigs.POD_UID_LABEL, ""))
                .toList();
    }
}
