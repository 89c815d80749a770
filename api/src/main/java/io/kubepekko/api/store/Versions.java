package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.managed.VersionConverter;
import io.kubepekko.api.registry.ResourceType;
import java.util.Map;
import java.util.Optional;

/**
 * The versions one write deals in: its collection's storage version (with the strategy of the
 * version the request used), the served version the request's body or patch is written in, and the
 * kind's other served versions, in which the managers who wrote through them own their fields. A
 * write in the storage version converts nothing.
 */
final class Versions {

    private final ResourceType storage;

    /** The served version of a converted write; null for a write in the storage version. */
    private final ServedKind served;

    /** Every served version of the collection's objects, by apiVersion. */
    private final Map<String, ServedKind> all;

    private Versions(ResourceType storage, ServedKind served, Map<String, ServedKind> all) {
        this.storage = storage;
        this.served = served;
        this.all = all;
    }

    /**
     * The versions of a write to a collection of {@code type} (a storage version) made through
     * {@code apiVersion}, or through the storage version itself when that is null.
     *
     * @throws IllegalArgumentException when {@code apiVersion} is no served version of the kind
     */
    static Versions of(Registry registry, ResourceType type, String apiVersion) {
        Map<String, ServedKind> all = registry.servedVersions(type.groupResource());
        if (apiVersion == null || apiVersion.equals(type.apiVersion())) {
            return new Versions(type, null, all);
        }
        ServedKind served = all.get(apiVersion);
        if (served == null) {
            throw new IllegalArgumentException(
                    apiVersion + " serves no objects of " + type.groupResource());
        }
        return new Versions(type.forRequestVersion(apiVersion), served, all);
    }

    /** The storage version's entry, with the strategy of the request's version. */
    ResourceType storage() {
        return storage;
    }

    /** The entry of the version the request's body or patch is written in. */
    ResourceType served() {
        return served == null ? storage : served.type();
    }

    /** Whether the write is made through another version than the storage version. */
    boolean converts() {
        return served != null;
    }

    /** An object of the request's version in its stored form (itself for the storage version). */
    ObjectNode toStorage(ObjectNode obj) {
        return served == null ? obj : served.toStorage(obj);
    }

    /**
     * A stored object in the request's version (itself for the storage version); the result may
     * share parts with {@code stored}.
     */
    ObjectNode fromStorage(ObjectNode stored) {
        return served == null ? stored : served.fromStorage(stored);
    }

    /**
     * Another served version of the kind than the request's, by its apiVersion: empty for the
     * request's own version and for an apiVersion the kind is not served in (whose managers' fields
     * are then taken as the request's version's, as before versions were converted).
     */
    Optional<ServedKind> other(String apiVersion) {
        if (apiVersion == null || apiVersion.equals(served().apiVersion())) {
            return Optional.empty();
        }
        return Optional.ofNullable(all.get(apiVersion));
    }

    /**
     * Objects of the request's version in the kind's other versions, for server-side apply's
     * managers who wrote through them.
     */
    VersionConverter converter() {
        if (all.size() < 2) {
            return VersionConverter.NONE;
        }
        return new VersionConverter() {
            @Override
            public Optional<Converted> convert(ObjectNode object, String apiVersion) {
                return other(apiVersion)
                        .map(
                                o ->
                                        new Converted(
                                                o.fromStorage(toStorage(object)),
                                                ManagedFieldsRecorder.message(o.type())));
            }

            @Override
            public ObjectNode back(ObjectNode object, String apiVersion) {
                return other(apiVersion).map(o -> fromStorage(o.toStorage(object))).orElse(object);
            }
        };
    }
}
