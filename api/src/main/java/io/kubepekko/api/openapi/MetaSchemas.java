package io.kubepekko.api.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.protobuf.WellKnownTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The apimachinery schemas every group-version document refers to (ObjectMeta, ListMeta, Status,
 * DeleteOptions, Patch, WatchEvent), with the components they refer to, and {@code autoscaling/v1
 * Scale} where a kind has a scale subresource. They come from the client models like the kinds'
 * schemas ({@link ModelComponents}), so a kind's {@code metadata} and the shared ObjectMeta are the
 * same full schema whichever {@link SchemaSource} describes the kinds.
 */
final class MetaSchemas {
    private MetaSchemas() {}

    /**
     * The meta schemas for the document of {@code gv} (the kind of {@code gv} is ignored), by name;
     * copies.
     */
    static Map<String, ObjectNode> forGroupVersion(GroupVersionKind gv, boolean withScale) {
        ModelComponents c = ModelComponents.builtin();
        Map<String, ObjectNode> out = new TreeMap<>();
        out.putAll(c.closure(c.model("V1ObjectMeta", "meta.ObjectMeta")));
        out.putAll(c.closure(c.model("V1ListMeta", "meta.ListMeta")));
        out.putAll(c.closure(kind(c, new GroupVersionKind("", "v1", "Status"))));
        out.putAll(c.closure(kind(c, new GroupVersionKind("", "v1", "DeleteOptions"))));
        out.putAll(c.closure(c.wellKnown(WellKnownTypes.RAW_EXTENSION)));
        if (withScale) {
            out.putAll(c.closure(kind(c, SchemaNames.SCALE_GVK)));
        }
        out.replaceAll((name, schema) -> schema.deepCopy());
        // DeleteOptions and WatchEvent are registered in every group-version (a client decodes them
        // as
        // its own), so they name this one besides the core group's.
        out.get(SchemaNames.DELETE_OPTIONS)
                .set(Schemas.GVK_EXTENSION, Schemas.gvkList(inEveryGroup(gv, "DeleteOptions")));
        out.put(
                SchemaNames.PATCH,
                Schemas.typed(
                        "object", "A patch; its format is given by the request's Content-Type."));
        out.put(SchemaNames.WATCH_EVENT, watchEvent(gv, c.wellKnown(WellKnownTypes.RAW_EXTENSION)));
        return out;
    }

    private static String kind(ModelComponents c, GroupVersionKind gvk) {
        return c.kind(gvk)
                .orElseThrow(() -> new IllegalStateException("no model or message for " + gvk));
    }

    private static List<GroupVersionKind> inEveryGroup(GroupVersionKind gv, String kind) {
        List<GroupVersionKind> gvks = new ArrayList<>();
        gvks.add(new GroupVersionKind("", "v1", kind));
        if (!gv.group().isEmpty()) {
            gvks.add(new GroupVersionKind(gv.group(), gv.version(), kind));
        }
        return gvks;
    }

    /** The client has no model of a watch event: written here in kube-apiserver's shape. */
    private static ObjectNode watchEvent(GroupVersionKind gv, String rawExtension) {
        ObjectNode s = Schemas.typed("object", "One event of a watch stream.");
        ObjectNode p = s.putObject("properties");
        p.set(
                "object",
                Schemas.ref(
                        rawExtension,
                        "The object as of the event: its new state for ADDED and "
                                + "MODIFIED, its last state for DELETED, only its resourceVersion for BOOKMARK, a Status for ERROR."));
        p.set(
                "type",
                Schemas.typed("string", "ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.")
                        .put("default", ""));
        s.putArray("required").add("type").add("object");
        s.set(Schemas.GVK_EXTENSION, Schemas.gvkList(inEveryGroup(gv, "WatchEvent")));
        return Schemas.sortedKeys(s);
    }
}
