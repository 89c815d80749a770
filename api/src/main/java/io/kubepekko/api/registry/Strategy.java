package io.kubepekko.api.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.status.FieldError;
import java.util.List;

/**
 * How one kind differs from the generic write pipeline (Kubernetes' {@code rest} strategies). All
 * methods are pure; a kind that behaves generically uses {@link #GENERIC}.
 */
public interface Strategy {

    Strategy GENERIC = new Strategy() {};

    /**
     * This strategy for a write made through {@code apiVersion}, a served version of the kind other
     * than its storage version (kube's strategies read the request's version from its context:
     * events.k8s.io/v1 Events are validated more strictly than core/v1 ones). The storage version's
     * own writes use this strategy as it is, which is also the default for every version.
     */
    default Strategy forRequestVersion(String apiVersion) {
        return this;
    }

    /**
     * Fills defaults visible to clients (Service type, container imagePullPolicy…). Mutates {@code
     * obj}.
     */
    default void applyDefaults(ObjectNode obj) {}

    /**
     * Kubernetes' {@code PrepareForCreate}: normalizes linked fields of a new object after
     * defaulting and before validation (a Service's {@code clusterIPs} from its {@code clusterIP}).
     * Mutates {@code obj}.
     */
    default void prepareForCreate(ObjectNode obj) {}

    /**
     * Kubernetes' {@code PrepareForUpdate} for writes of the main resource (not its subresources):
     * carries over values the server filled that the client left out and clears those a type change
     * makes meaningless, after defaulting and before validation. Mutates {@code obj}.
     */
    default void prepareForUpdate(ObjectNode obj, ObjectNode old) {}

    /**
     * Kind-specific validation of a new object, after defaulting; metadata is validated
     * generically.
     */
    default List<FieldError> validateCreate(ObjectNode obj) {
        return List.of();
    }

    /** Kind-specific validation of an update (immutable fields and the like), after defaulting. */
    default List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        return validateCreate(obj);
    }

    /**
     * The status a newly created object starts with, for kinds whose status is written only through
     * the status subresource; {@code null} means "drop whatever the client sent". Pods start {@code
     * Pending}, namespaces {@code Active}.
     */
    default JsonNode initialStatus(ObjectNode obj) {
        return null;
    }

    /**
     * The values this kind's objects hold that must be unique across the cluster, or {@code null}
     * for kinds (nearly all) whose objects hold none.
     */
    default ClusterValues clusterValues() {
        return null;
    }

    /**
     * What a POST to this kind's subresource {@code name} does to the object it addresses (Pod's
     * {@code binding}), or {@code null} when that subresource takes no create.
     */
    default SubresourceCreate subresourceCreate(String name) {
        return null;
    }

    /**
     * How this kind's DELETE differs from the generic store's; {@link DeletionRules#GENERIC} for
     * most kinds.
     */
    default DeletionRules deletion() {
        return DeletionRules.GENERIC;
    }

    /**
     * Whether an update changes what {@code metadata.generation} counts, for kinds that track it:
     * by default anything outside {@code metadata} and {@code status}.
     */
    default boolean generationChanged(ObjectNode old, ObjectNode updated) {
        return specDiffers(old, updated);
    }

    /** Whether anything but metadata and status differs between two versions of an object. */
    static boolean specDiffers(ObjectNode old, ObjectNode updated) {
        ObjectNode a = old.deepCopy();
        ObjectNode b = updated.deepCopy();
        a.remove(List.of("metadata", "status"));
        b.remove(List.of("metadata", "status"));
        return !a.equals(b);
    }
}
