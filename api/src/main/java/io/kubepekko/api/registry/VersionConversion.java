package io.kubepekko.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import java.util.Map;

/**
 * How objects of one served version become their stored form and back, as pure functions on JSON
 * trees (kube's conversion functions between a version and the internal type, the storage version
 * standing in for the internal one). Both directions must be lossless: an object converted one way
 * and back is the object it was (SPEC's versioning rule 2), so a field one version lacks is kept as
 * the other version keeps it.
 *
 * <p>The storage version of a kind converts nothing ({@link #IDENTITY}); every other served version
 * names the group-resource its objects are stored in and one of these. Neither direction touches
 * {@code apiVersion} and {@code kind}, which the caller sets. {@code metadata} is every version's,
 * except where kube keeps what a version cannot hold in annotations (autoscaling/v1
 * HorizontalPodAutoscalers): such a conversion adds or removes those annotations, on a copy of the
 * metadata, never on the given object's.
 */
public interface VersionConversion {

    /** The storage version's own: objects are served as they are stored. */
    VersionConversion IDENTITY =
            new VersionConversion() {
                @Override
                public ObjectNode toStorage(ObjectNode served) {
                    return served;
                }

                @Override
                public ObjectNode fromStorage(ObjectNode stored) {
                    return stored;
                }
            };

    /**
     * The stored form of an object of the served version. Does not mutate {@code served}; may
     * return it unchanged.
     */
    ObjectNode toStorage(ObjectNode served);

    /**
     * The served form of a stored object. Does not mutate {@code stored}; may return it unchanged.
     */
    ObjectNode fromStorage(ObjectNode stored);

    /**
     * The served form's JSON straight from a stored object's JSON, with {@code served}'s type meta
     * first: the same bytes as converting the tree with {@link #fromStorage} and writing it, for
     * conversions that can do it faster on bytes (every item of a list goes through here); {@code
     * null} when this conversion has no such path and the caller converts the tree.
     */
    default byte[] fromStorageJson(byte[] stored, GroupVersionKind served) {
        return null;
    }

    /**
     * The field-selector labels of the served version that the stored version spells otherwise
     * (kube's field label conversion function for the version): served label to stored label.
     * Labels not listed are the same in both.
     */
    default Map<String, String> fieldLabels() {
        return Map.of();
    }
}
