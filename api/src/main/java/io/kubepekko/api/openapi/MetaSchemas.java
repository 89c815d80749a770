package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.kubepekko.api.openapi.Schemas.arrayOf;
import static io.kubepekko.api.openapi.Schemas.dateTime;
import static io.kubepekko.api.openapi.Schemas.int32;
import static io.kubepekko.api.openapi.Schemas.int64;
import static io.kubepekko.api.openapi.Schemas.openObject;
import static io.kubepekko.api.openapi.Schemas.plain;
import static io.kubepekko.api.openapi.Schemas.ref;
import static io.kubepekko.api.openapi.Schemas.stringMap;
import static io.kubepekko.api.openapi.Schemas.typed;

/**
 * The apimachinery schemas every group-version document refers to (metadata, Status, DeleteOptions,
 * Patch, WatchEvent) and {@code autoscaling/v1 Scale}. These types are fixed and small, so they are
 * described fully rather than left open.
 */
final class MetaSchemas {
    private MetaSchemas() {}

    /** The meta schemas for the document of {@code gv} (the kind of {@code gv} is ignored), by name. */
    static Map<String, ObjectNode> forGroupVersion(GroupVersionKind gv, boolean withScale) {
        Map<String, ObjectNode> out = new LinkedHashMap<>();
        out.put(SchemaNames.DELETE_OPTIONS, deleteOptions(gv));
        out.put(SchemaNames.LIST_META, listMeta());
        out.put(SchemaNames.OBJECT_META, objectMeta());
        out.put(SchemaNames.PATCH, typed("object", "A patch; its format is given by the request's Content-Type."));
        out.put(SchemaNames.STATUS, status());
        out.put(SchemaNames.WATCH_EVENT, watchEvent());
        if (withScale) {
            out.put(SchemaNames.SCALE, scale());
        }
        return out;
    }

    private static ObjectNode objectMeta() {
        ObjectNode s = typed("object", "Metadata that every persisted object has.");
        ObjectNode p = s.putObject("properties");
        p.set("annotations", stringMap("Unstructured key/value data, not used to select objects."));
        p.set("creationTimestamp", dateTime("When the object was created; set by the server."));
        p.set("deletionGracePeriodSeconds", int64("Seconds the object has left once deletion was requested."));
        p.set("deletionTimestamp", dateTime("When the object will be deleted; set by the server."));
        p.set("finalizers", arrayOf(plain("string"), "Must be empty before the object is deleted."));
        p.set("generateName", typed("string", "Prefix from which the server generates a unique name."));
        p.set("generation", int64("Sequence number of changes to the desired state."));
        p.set("labels", stringMap("Key/value pairs used to select objects."));
        p.set("managedFields", arrayOf(openObject("One manager's fields."), "Which manager owns which fields."));
        p.set("name", typed("string", "Unique within a namespace."));
        p.set("namespace", typed("string", "The namespace the object lives in; empty for cluster-scoped objects."));
        p.set("ownerReferences", arrayOf(openObject("An owning object."),
                "Objects this one depends on; it is garbage-collected after them."));
        p.set("resourceVersion", typed("string", "Opaque version of the object, for optimistic concurrency."));
        p.set("selfLink", typed("string", "Deprecated; not set."));
        p.set("uid", typed("string", "Unique in time and space; set by the server."));
        return s;
    }

    private static ObjectNode listMeta() {
        ObjectNode s = typed("object", "Metadata of a list.");
        ObjectNode p = s.putObject("properties");
        p.set("continue", typed("string", "Token to fetch the next chunk; empty on the last one."));
        p.set("remainingItemCount", int64("Items left after this chunk, when known."));
        p.set("resourceVersion", typed("string", "The version at which the list was read."));
        p.set("selfLink", typed("string", "Deprecated; not set."));
        return s;
    }

    private static ObjectNode status() {
        ObjectNode s = typed("object", "The result of a call that returns no object, and of every failure.");
        ObjectNode p = s.putObject("properties");
        p.set("apiVersion", typed("string", "v1"));
        p.set("code", int32("The HTTP status code."));
        p.set("details", openObject("Details that depend on the reason, such as the causes of a validation failure."));
        p.set("kind", typed("string", "Status"));
        p.set("message", typed("string", "Human-readable description."));
        p.set("metadata", ref(SchemaNames.LIST_META, "List metadata; normally empty."));
        p.set("reason", typed("string", "Machine-readable reason of a failure."));
        p.set("status", typed("string", "Success or Failure."));
        s.set(Schemas.GVK_EXTENSION, Schemas.gvkList(List.of(new GroupVersionKind("", "v1", "Status"))));
        return s;
    }

    private static ObjectNode deleteOptions(GroupVersionKind gv) {
        ObjectNode s = typed("object", "Options of a delete call, sent as its body.");
        ObjectNode p = s.putObject("properties");
        p.set("apiVersion", typed("string", "The versioned schema of this object."));
        p.set("dryRun", arrayOf(plain("string"), "'All' processes the call without persisting it."));
        p.set("gracePeriodSeconds", int64("Seconds before the object is deleted; 0 deletes immediately."));
        p.set("kind", typed("string", "DeleteOptions"));
        p.set("orphanDependents", typed("boolean", "Deprecated; use propagationPolicy."));
        ObjectNode preconditions = typed("object", "The call fails unless the object still has these values.");
        preconditions.putObject("properties")
                .<ObjectNode>set("resourceVersion", typed("string", "Expected resourceVersion."))
                .set("uid", typed("string", "Expected uid."));
        p.set("preconditions", preconditions);
        p.set("propagationPolicy", typed("string", "What happens to dependents: Orphan, Background or Foreground."));
        List<GroupVersionKind> gvks = new ArrayList<>();
        gvks.add(new GroupVersionKind("", "v1", "DeleteOptions"));
        if (!gv.group().isEmpty()) {
            gvks.add(new GroupVersionKind(gv.group(), gv.version(), "DeleteOptions"));
        }
        s.set(Schemas.GVK_EXTENSION, Schemas.gvkList(gvks));
        return s;
    }

    private static ObjectNode watchEvent() {
        ObjectNode s = typed("object", "One event of a watch stream.");
        ObjectNode p = s.putObject("properties");
        p.set("object", openObject("The object as of the event; for BOOKMARK only its resourceVersion; "
                + "for ERROR a Status."));
        p.set("type", typed("string", "ADDED, MODIFIED, DELETED, BOOKMARK or ERROR."));
        s.putArray("required").add("type").add("object");
        return s;
    }

    private static ObjectNode scale() {
        ObjectNode s = typed("object", "The replica count of a scalable object, read and written through /scale.");
        ObjectNode p = s.putObject("properties");
        p.set("apiVersion", typed("string", "autoscaling/v1"));
        p.set("kind", typed("string", "Scale"));
        p.set("metadata", ref(SchemaNames.OBJECT_META, "Metadata of the scaled object."));
        ObjectNode spec = typed("object", "The desired replica count.");
        spec.putObject("properties").set("replicas", int32("Desired number of instances."));
        p.set("spec", spec);
        ObjectNode status = typed("object", "The observed replica count.");
        ObjectNode sp = status.putObject("properties");
        sp.set("replicas", int32("Observed number of instances."));
        sp.set("selector", typed("string", "Label selector of the instances, in its string form."));
        status.putArray("required").add("replicas");
        p.set("status", status);
        s.set(Schemas.GVK_EXTENSION, Schemas.gvkList(List.of(SchemaNames.SCALE_GVK)));
        return s;
    }
}
