package io.kubepekko.http.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.store.WriteOp;
import io.kubepekko.api.store.WriteOptions;

/** What a webhook is told of a write's options, and the dry run that learns its object. */
final class WebhookOptions {
    private WebhookOptions() {}

    /**
     * The review's {@code options}: the operation's options object as kube sends it (CreateOptions,
     * UpdateOptions, PatchOptions, DeleteOptions of meta.k8s.io/v1).
     */
    static ObjectNode of(WriteOp op, String operation) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        String kind =
                op instanceof WriteOp.Create
                        ? "CreateOptions"
                        : op instanceof WriteOp.Patch
                                ? "PatchOptions"
                                : op instanceof WriteOp.Delete ? "DeleteOptions" : "UpdateOptions";
        o.put("kind", kind);
        o.put("apiVersion", "meta.k8s.io/v1");
        WriteOptions options = options(op);
        if (options.dryRun()) {
            o.putArray("dryRun").add("All");
        }
        if (op instanceof WriteOp.Delete d) {
            if (d.gracePeriodSeconds() != null) {
                o.put("gracePeriodSeconds", d.gracePeriodSeconds());
            }
            if (d.propagationPolicy() != null) {
                o.put("propagationPolicy", d.propagationPolicy().wireName());
            }
        } else if (options.fieldManager() != null) {
            o.put("fieldManager", options.fieldManager());
        }
        if (op instanceof WriteOp.Patch p && p.force()) {
            o.put("force", true);
        }
        return o;
    }

    /** A create's options as kube sends them for a create of a subresource. */
    static ObjectNode create(boolean dryRun, String fieldManager) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("kind", "CreateOptions");
        o.put("apiVersion", "meta.k8s.io/v1");
        if (dryRun) {
            o.putArray("dryRun").add("All");
        }
        if (fieldManager != null) {
            o.put("fieldManager", fieldManager);
        }
        return o;
    }

    /** The options {@code op} carries. */
    static WriteOptions options(WriteOp op) {
        if (op instanceof WriteOp.Create c) {
            return c.options();
        }
        if (op instanceof WriteOp.Update u) {
            return u.options();
        }
        if (op instanceof WriteOp.Patch p) {
            return p.options();
        }
        return ((WriteOp.Delete) op).options();
    }

    /** {@code op} as a dry run: every stage but persistence. */
    static WriteOp dryRun(WriteOp op) {
        WriteOptions o = options(op);
        WriteOptions dry =
                new WriteOptions(true, o.fieldManager(), o.fieldValidation(), o.apiVersion());
        if (op instanceof WriteOp.Create c) {
            return new WriteOp.Create(c.object(), dry);
        }
        if (op instanceof WriteOp.Update u) {
            return new WriteOp.Update(u.name(), u.object(), u.subresource(), dry);
        }
        if (op instanceof WriteOp.Patch p) {
            return new WriteOp.Patch(
                    p.name(), p.type(), p.patch(), p.subresource(), dry, p.force());
        }
        WriteOp.Delete d = (WriteOp.Delete) op;
        return new WriteOp.Delete(
                d.name(),
                d.preconditions(),
                dry,
                d.gracePeriodSeconds(),
                d.propagationPolicy(),
                d.orphanDependents());
    }

    /**
     * Clears what a dry-run create filled that kube fills only after its admission (uid, creation
     * time, version, generation; the name when the server generates it), so a webhook sees a new
     * object as kube's do.
     */
    static void clearSystemFields(ObjectNode object, String requestedName) {
        JsonNode meta = object.get("metadata");
        if (meta instanceof ObjectNode m) {
            m.remove("uid");
            m.remove("creationTimestamp");
            m.remove("resourceVersion");
            m.remove("generation");
            if (requestedName.isEmpty()) {
                m.remove("name");
            }
        }
    }
}
