package io.kubepekko.actors.allocation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.allocation.AllocatorEvent.ValuesClaimed;
import io.kubepekko.actors.allocation.AllocatorEvent.ValuesReleased;
import io.kubepekko.actors.allocation.AllocatorState.Owner;
import io.kubepekko.api.alloc.NodePortPool;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.api.alloc.ValuePool;
import io.kubepekko.api.alloc.ValueRequest;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pcollections.TreePMap;

/**
 * {@link Ownership}: the allocator's decisions within one batch, without an actor: what a claim, a
 * settlement, an abandon and a collection's report change, and the events that record it.
 */
class OwnershipTest {

    private static final Map<String, ValuePool> POOLS =
            Map.of("ports", new NodePortPool("ports", PortRange.parse("30000-30009")));
    private static final String A = "services/a";
    private static final String B = "services/b";

    private static List<ValueRequest> port(String value) {
        return List.of(ValueRequest.specific("ports", value));
    }

    @Test
    void aClaimTakesEachWritesValuesAllOrNothingAgainstWhatTheBatchTookBefore() {
        Ownership o = new Ownership(TreePMap.empty());
        Ownership.ClaimOutcome first =
                o.claim(A, "c1", List.of(port("30001"), port("30001")), POOLS, new Random(1));
        assertTrue(first.tookValues());
        assertTrue(first.results().get(0).isGranted());
        assertFalse(first.results().get(1).isGranted(), "taken by the first write");
        assertEquals(new Owner(A, "c1"), o.owners().get("ports/30001"));
        assertEquals(List.of(new ValuesClaimed(A, "c1", List.of("ports/30001"))), o.events());

        Ownership.ClaimOutcome second = o.claim(B, "c2", List.of(port("30001")), POOLS, null);
        assertFalse(second.tookValues());
        assertEquals(1, o.events().size(), "a refused claim records nothing");
    }

    @Test
    void settlingReleasesOnlyWhatTheCollectionOwns() {
        TreePMap<String, Owner> owners =
                TreePMap.<String, Owner>empty()
                        .plus("ports/30001", new Owner(A, "c1"))
                        .plus("ports/30002", new Owner(B, "c2"));
        Ownership o = new Ownership(owners);
        o.settle(A, List.of("ports/30001", "ports/30002", "ports/30001"));
        assertEquals(List.of(new ValuesReleased(A, List.of("ports/30001"))), o.events());
        assertEquals(Set.of("ports/30002"), o.owners().keySet());
        o.settle(A, List.of("ports/30009"));
        assertEquals(1, o.events().size(), "nothing owned: no event");
    }

    @Test
    void anAbandonReleasesTheClaimsValues() {
        TreePMap<String, Owner> owners =
                TreePMap.<String, Owner>empty()
                        .plus("ports/30001", new Owner(A, "c1"))
                        .plus("ports/30002", new Owner(A, "c2"));
        Ownership o = new Ownership(owners);
        o.abandon(A, "c1");
        assertEquals(List.of(new ValuesReleased(A, List.of("ports/30001"))), o.events());
        assertEquals(Set.of("ports/30002"), o.owners().keySet());
    }

    @Test
    void aReportReleasesWhatNoObjectHoldsNorAClaimInFlightAndAdoptsWhatNobodyOwns() {
        TreePMap<String, Owner> owners =
                TreePMap.<String, Owner>empty()
                        .plus("ports/30001", new Owner(A, "c1")) // held: stays
                        .plus("ports/30002", new Owner(A, "c2")) // in flight: stays
                        .plus("ports/30003", new Owner(A, "c3")) // neither: released
                        .plus("ports/30004", new Owner(B, "c4")); // another's
        Ownership o = new Ownership(owners);
        Ownership.Reconciled done =
                o.reconcile(A, List.of("ports/30001", "ports/30004", "ports/30005"), Set.of("c2"));
        assertEquals(List.of("ports/30003"), done.released());
        assertEquals(List.of(new Ownership.Conflict("ports/30004", B)), done.conflicts());
        assertEquals(
                List.of(
                        new ValuesReleased(A, List.of("ports/30003")),
                        new ValuesClaimed(A, "reconciled", List.of("ports/30005"))),
                o.events());
        assertEquals(new Owner(A, "reconciled"), o.owners().get("ports/30005"));
        assertEquals(new Owner(B, "c4"), o.owners().get("ports/30004"));
    }

    @Test
    void theStateAppliesTheEventsAsTheBatchDid() {
        Ownership o = new Ownership(TreePMap.empty());
        o.claim(A, "c1", List.of(port("30001"), port("30002")), POOLS, null);
        o.abandon(A, "c1");
        o.reconcile(B, List.of("ports/30003"), Set.of());
        AllocatorState state = AllocatorState.EMPTY;
        for (AllocatorEvent e : o.events()) {
            state = state.apply(e);
        }
        assertEquals(o.owners(), state.owners());
    }
}
