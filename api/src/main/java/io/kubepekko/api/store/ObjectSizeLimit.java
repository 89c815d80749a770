package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.JsonSizeBound;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.status.ApiStatus;

/**
 * The largest object a write may leave stored: its JSON as the write pipeline produces it,
 * managedFields included, before the resourceVersion (and a Service's allocated IPs and ports) are
 * filled in. etcd refuses a value over its request limit, and that is what bounds an object in
 * Kubernetes.
 */
final class ObjectSizeLimit {
    /** etcd's default request limit ({@code --max-request-bytes}). */
    static final long DEFAULT_MAX_OBJECT_BYTES = 1_572_864;

    /**
     * What etcd answers for a value over its limit. kube-apiserver passes it on as a 500; here it
     * is a 413, since the request made the object too large (a 5xx is the server's fault), with
     * etcd's words.
     */
    static final String TOO_LARGE = "etcdserver: request is too large";

    private final long maxObjectBytes;

    ObjectSizeLimit(long maxObjectBytes) {
        if (maxObjectBytes <= 0) {
            throw new IllegalArgumentException(
                    "the object size limit must be positive: " + maxObjectBytes);
        }
        this.maxObjectBytes = maxObjectBytes;
    }

    /**
     * The outcome, or a 413 when it would leave an object over the limit. Like kube-apiserver's
     * create, update and patch handlers (not apply, not delete), it first tries the object without
     * its managedFields, which can be large. A dry run never reaches etcd, so it is not refused.
     */
    WriteDecision fit(WriteOp op, WriteOutcome out) {
        if (op.options().dryRun()
                || !out.changed()
                || out.removes()
                || out.after() == null
                || fits(out.after())) {
            return out;
        }
        boolean apply = op instanceof WriteOp.Patch p && p.type() == PatchType.APPLY_PATCH;
        ObjectNode meta = ObjectMeta.of(out.after());
        if (!apply && !(op instanceof WriteOp.Delete) && meta.has("managedFields")) {
            meta.remove("managedFields");
            if (fits(out.after())) {
                return out;
            }
        }
        return new WriteResult.Refused(ApiStatus.requestEntityTooLarge(TOO_LARGE));
    }

    /**
     * Whether {@code object}'s JSON is within the limit. This runs for every write inside its
     * collection's entity, one write after the other: the bound answers without writing the object
     * unless it is near the limit.
     */
    private boolean fits(ObjectNode object) {
        return JsonSizeBound.of(object) <= maxObjectBytes
                || Json.byteSize(object) <= maxObjectBytes;
    }
}
