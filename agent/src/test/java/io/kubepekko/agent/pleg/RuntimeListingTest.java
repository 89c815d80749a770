package io.kubepekko.agent.pleg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.agent.cri.v1.Container;
import io.kubepekko.agent.cri.v1.ContainerState;
import io.kubepekko.agent.cri.v1.PodSandbox;
import io.kubepekko.agent.cri.v1.PodSandboxState;
import io.kubepekko.agent.runtime.SandboxConfigs;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The node-wide relist's diff: which pods changed between two listings of the runtime. */
class RuntimeListingTest {

    @Test
    void theSameListingAgainChangesNothing() {
        RuntimeListing listing =
                RuntimeListing.of(
                        List.of(sandbox("s1", "a", true), sandbox("s2", "b", true)),
                        List.of(
                                container("c1", "a", ContainerState.CONTAINER_RUNNING),
                                container("c2", "b", ContainerState.CONTAINER_RUNNING)));
        RuntimeListing again =
                RuntimeListing.of(
                        List.of(sandbox("s2", "b", true), sandbox("s1", "a", true)),
                        List.of(
                                container("c2", "b", ContainerState.CONTAINER_RUNNING),
                                container("c1", "a", ContainerState.CONTAINER_RUNNING)));

        assertEquals(Set.of(), again.changedSince(listing), "order does not matter");
    }

    @Test
    void aContainerThatExitedChangesOnlyItsPod() {
        RuntimeListing before =
                RuntimeListing.of(
                        List.of(sandbox("s1", "a", true), sandbox("s2", "b", true)),
                        List.of(
                                container("c1", "a", ContainerState.CONTAINER_RUNNING),
                                container("c2", "b", ContainerState.CONTAINER_RUNNING)));
        RuntimeListing after =
                RuntimeListing.of(
                        List.of(sandbox("s1", "a", true), sandbox("s2", "b", true)),
                        List.of(
                                container("c1", "a", ContainerState.CONTAINER_EXITED),
                                container("c2", "b", ContainerState.CONTAINER_RUNNING)));

        assertEquals(Set.of("a"), after.changedSince(before));
    }

    @Test
    void aContainerCreatedOrRemovedChangesItsPod() {
        RuntimeListing one =
                RuntimeListing.of(
                        List.of(sandbox("s1", "a", true)),
                        List.of(container("c1", "a", ContainerState.CONTAINER_EXITED)));
        RuntimeListing two =
                RuntimeListing.of(
                        List.of(sandbox("s1", "a", true)),
                        List.of(
                                container("c1", "a", ContainerState.CONTAINER_EXITED),
                                container("c2", "a", ContainerState.CONTAINER_CREATED)));

        assertEquals(Set.of("a"), two.changedSince(one), "created");
        assertEquals(Set.of("a"), one.changedSince(two), "removed");
    }

    @Test
    void aSandboxThatStoppedChangesItsPod() {
        RuntimeListing ready = RuntimeListing.of(List.of(sandbox("s1", "a", true)), List.of());
        RuntimeListing notReady = RuntimeListing.of(List.of(sandbox("s1", "a", false)), List.of());

        assertEquals(Set.of("a"), notReady.changedSince(ready));
    }

    @Test
    void aPodThatAppearsOrGoesChanges() {
        RuntimeListing none = RuntimeListing.EMPTY;
        RuntimeListing one = RuntimeListing.of(List.of(sandbox("s1", "a", true)), List.of());

        assertEquals(Set.of("a"), one.changedSince(none), "appeared");
        assertEquals(Set.of("a"), none.changedSince(one), "gone");
    }

    @Test
    void whatHasNoPodUidLabelIsNotOurs() {
        PodSandbox foreignSandbox =
                PodSandbox.newBuilder().setId("x").setState(PodSandboxState.SANDBOX_READY).build();
        Container foreign =
                Container.newBuilder()
                        .setId("y")
                        .setState(ContainerState.CONTAINER_RUNNING)
                        .build();

        RuntimeListing listing = RuntimeListing.of(List.of(foreignSandbox), List.of(foreign));

        assertEquals(Set.of(), listing.pods().keySet());
        assertEquals(Set.of(), listing.changedSince(RuntimeListing.EMPTY));
    }

    private static PodSandbox sandbox(String id, String uid, boolean ready) {
        return PodSandbox.newBuilder()
                .setId(id)
                .putLabels(SandboxConfigs.POD_UID_LABEL, uid)
                .setState(ready ? PodSandboxState.SANDBOX_READY : PodSandboxState.SANDBOX_NOTREADY)
                .build();
    }

    private static Container container(String id, String uid, ContainerState state) {
        return Container.newBuilder()
                .setId(id)
                .putLabels(SandboxConfigs.POD_UID_LABEL, uid)
                .setState(state)
                .build();
    }
}
