package io.kubepekko.api.gc;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The garbage collector's decisions, as kube's {@code attemptToDeleteItem} and {@code
 * processDeletingDependentsItem} make them; pure, so the controller only gathers the inputs and
 * carries out the result.
 */
public final class GarbageCollection {

    private GarbageCollection() {}

    /**
     * What to do with {@code latest}, given what was found at each of its owner references.
     *
     * @param owners the state of each owner reference by owner uid; a reference missing here could
     *     not be resolved, and then nothing is done (kube stops at that error)
     * @param hasDependents whether the object owns objects itself (it is then deleted in the
     *     foreground when an owner waits for it, so the wait propagates down)
     */
    public static DependentAction forDependent(
            ObjectNode latest, Map<String, OwnerState> owners, boolean hasDependents) {
        if (DeletionState.beingDeleted(latest)) {
            return new DependentAction.Keep("being deleted");
        }
        List<OwnerReference> refs = OwnerReference.of(latest);
        if (refs.isEmpty()) {
            return new DependentAction.Keep("no owners");
        }
        List<String> solid = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        List<String> waiting = new ArrayList<>();
        for (OwnerReference ref : refs) {
            OwnerState state = owners.get(ref.uid());
            if (state == null) {
                return new DependentAction.Keep(
                        "owner " + ref.kind() + " " + ref.name() + " cannot be resolved");
            }
            switch (state) {
                case SOLID -> solid.add(ref.uid());
                case DANGLING -> gone.add(ref.uid());
                case WAITING_FOR_DEPENDENTS -> waiting.add(ref.uid());
            }
        }
        if (!solid.isEmpty()) {
            if (gone.isEmpty() && waiting.isEmpty()) {
                return new DependentAction.Keep("has an existing owner");
            }
            List<String> remove = new ArrayList<>(gone);
            remove.addAll(waiting);
            return new DependentAction.RemoveOwnerReferences(remove);
        }
        if (!waiting.isEmpty() && hasDependents) {
            return new DependentAction.Delete(PropagationPolicy.FOREGROUND);
        }
        // Collected; a policy its own finalizers already ask for is honoured.
        if (DeletionState.hasFinalizer(latest, DeletionState.ORPHAN_FINALIZER)) {
            return new DependentAction.Delete(PropagationPolicy.ORPHAN);
        }
        if (DeletionState.hasFinalizer(latest, DeletionState.FOREGROUND_FINALIZER)) {
            return new DependentAction.Delete(PropagationPolicy.FOREGROUND);
        }
        return new DependentAction.Delete(PropagationPolicy.BACKGROUND);
    }

    /**
     * Whether {@code dependent} keeps {@code ownerUid} from going in the foreground: its reference
     * to that owner has {@code blockOwnerDeletion: true}.
     */
    public static boolean blocks(ObjectNode dependent, String ownerUid) {
        for (OwnerReference ref : OwnerReference.of(dependent)) {
            if (ref.uid().equals(ownerUid) && ref.blockOwnerDeletion()) {
                return true;
            }
        }
        return false;
    }
}
