package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.managed.ManagedFields;
import io.kubepekko.api.managed.TypedFields;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.protobuf.ProtoKinds;
import io.kubepekko.api.protobuf.ProtoSchema;
import io.kubepekko.api.registry.ResourceType;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps {@code metadata.managedFields} on every create and update (an Update operation by the
 * write's field manager), as kube-apiserver does. A body that sets managedFields to {@code [{}]}
 * clears them; a body that explicitly changes them is taken as it is (kubectl's migration from
 * client-side to server-side apply relies on both). Writes that change nothing leave them alone. A
 * write whose body's managedFields were recorded already ({@link WriteOptions#managersRecorded()})
 * keeps them as they are.
 */
final class ManagedFieldsRecorder {
    private ManagedFieldsRecorder() {}

    private static final TypedFields FIELDS = new TypedFields(MergeMetadata.builtin());

    /**
     * @param versions the version the write was made through, whose paths the writer's fields are
     *     recorded in and whose apiVersion its entry carries, and the kind's other versions, in
     *     which the fields of managers who wrote through them are compared
     */
    static WriteOutcome record(Versions versions, WriteOp op, WriteOutcome out, Instant now) {
        ResourceType type = versions.served();
        // A subresource's create (pods/binding) is written straight to storage by kube-apiserver,
        // past
        // the field manager: the object's managedFields stay as they were.
        if (op instanceof WriteOp.Delete
                || op instanceof WriteOp.CreateSubresource
                || !out.changed()
                || out.removes()
                || out.after() == null) {
            return out;
        }
        ObjectNode after = out.after();
        ObjectNode meta = ObjectMeta.of(after);
        ObjectNode body = body(op);
        if (body != null && op.options().managersRecorded()) {
            // Recorded when the request was admitted, before its mutating webhooks: kept as the
            // body has them, a subresource's write included.
            JsonNode given = body.path("metadata").get("managedFields");
            if (given == null || given.isNull() || given.isEmpty()) {
                meta.remove("managedFields");
            } else {
                meta.set("managedFields", given.deepCopy());
            }
            return out;
        }
        String message = message(type);
        if (message == null) {
            return out; // a kind without merge metadata: nothing to track by
        }
        JsonNode supplied = meta.get("managedFields");
        if (op instanceof WriteOp.Patch p && p.type() == PatchType.APPLY_PATCH) {
            // Server-side apply has recorded its managers already; an empty list means none are
            // left.
            if (supplied != null && supplied.isEmpty()) {
                meta.remove("managedFields");
            }
            return out;
        }
        ObjectNode before = out.before();
        boolean reset = false;
        if (before != null && supplied != null) {
            reset = isReset(supplied);
            if (!reset && !supplied.equals(before.path("metadata").get("managedFields"))) {
                return out; // explicitly changed by the client: taken as is
            }
        }
        // A reset happens first: the writer then owns what else this request changed.
        List<ManagedFields.Entry> entries =
                before == null || reset ? List.of() : ManagedFields.of(before);
        // managedFields themselves are never tracked, so the objects are compared as they are.
        TypedFields.Comparison changes =
                FIELDS.compare(
                        before == null ? null : versions.fromStorage(before),
                        versions.fromStorage(after),
                        message);
        Map<String, TypedFields.Comparison> otherVersions = new HashMap<>();
        for (ManagedFields.Entry e : entries) {
            versions.other(e.apiVersion())
                    .ifPresent(
                            other ->
                                    otherVersions.computeIfAbsent(
                                            e.apiVersion(),
                                            v ->
                                                    FIELDS.compare(
                                                            other.fromStorage(before),
                                                            other.fromStorage(after),
                                                            message(other.type()))));
        }
        List<ManagedFields.Entry> updated =
                ManagedFields.update(
                        entries,
                        manager(op),
                        subresource(op),
                        type.apiVersion(),
                        Timestamps.format(now),
                        changes,
                        otherVersions);
        if (updated.isEmpty()) {
            meta.remove("managedFields");
        } else {
            meta.set("managedFields", ManagedFields.render(updated));
        }
        return out;
    }

    /** The protobuf message whose merge metadata a kind's fields follow; null for none. */
    static String message(ResourceType type) {
        return ProtoKinds.message(
                ProtoSchema.builtin(), type.gvk().group(), type.gvk().version(), type.gvk().kind());
    }

    /** {@code [{}]} as sent, or the empty list the update step turns it into before validation. */
    private static boolean isReset(JsonNode supplied) {
        return supplied.isArray()
                && (supplied.isEmpty()
                        || (supplied.size() == 1
                                && supplied.get(0).isObject()
                                && supplied.get(0).isEmpty()));
    }

    /** The object a create or update sent; null for a patch. */
    private static ObjectNode body(WriteOp op) {
        if (op instanceof WriteOp.Create c) {
            return c.object();
        }
        return op instanceof WriteOp.Update u ? u.object() : null;
    }

    private static String manager(WriteOp op) {
        String m = op.options() == null ? null : op.options().fieldManager();
        return m == null || m.isEmpty() ? "unknown" : m;
    }

    private static String subresource(WriteOp op) {
        if (op instanceof WriteOp.Update u) {
            return u.subresource();
        }
        if (op instanceof WriteOp.Patch p) {
            return p.subresource();
        }
        return null;
    }
}
