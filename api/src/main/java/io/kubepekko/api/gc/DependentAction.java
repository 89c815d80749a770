package io.kubepekko.api.gc;

import java.util.List;

/** What the garbage collector does with one dependent after looking at its owners. */
public sealed interface DependentAction {

    /** Nothing to do: an owner still holds it, it is already going, or it has no owners. */
    record Keep(String why) implements DependentAction {}

    /**
     * It stays (another owner still exists), but the references to these owners go: the ones that
     * are gone, and the ones waiting in the foreground, which would otherwise wait for it forever.
     */
    record RemoveOwnerReferences(List<String> ownerUids) implements DependentAction {}

    /** It is collected, with this propagation policy for its own dependents. */
    record Delete(PropagationPolicy propagationPolicy) implements DependentAction {}
}
