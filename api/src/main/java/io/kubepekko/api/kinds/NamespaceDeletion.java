package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;
import java.util.Set;

/**
 * The namespace lifecycle: the system namespaces may not be deleted (NamespaceLifecycle admission);
 * the first delete only marks a namespace {@code Terminating}; it then stays while {@code
 * spec.finalizers} (normally {@code kubernetes}, removed by the namespace controller through {@code
 * /finalize}) is not empty.
 */
final class NamespaceDeletion implements DeletionRules {

    /**
     * Kubernetes' immortal namespaces and {@code kube-node-lease}: kube-apiserver lets that one be
     * deleted because its system-namespaces controller creates it again; we have no such
     * controller, and node agents need it for their leases, so it is kept like the others.
     */
    private static final Set<String> IMMORTAL =
            Set.of("default", "kube-system", "kube-public", "kube-node-lease");

    @Override
    public String undeletable(String name) {
        return IMMORTAL.contains(name) ? "this namespace may not be deleted" : null;
    }

    @Override
    public boolean terminatesOnFirstDelete() {
        return true;
    }

    @Override
    public void markTerminating(ObjectNode namespace) {
        Nodes.obj(namespace, "status").put("phase", "Terminating");
    }

    @Override
    public boolean removalHeld(ObjectNode namespace) {
        return !Nodes.strings(namespace.path("spec"), "finalizers").isEmpty();
    }
}
