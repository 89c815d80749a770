package io.kubepekko.api.auth.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.meta.SemanticJson;
import java.util.List;

/**
 * kube's {@code rbacregistry.IsOnlyMutatingGCFields}: whether an update changes nothing but what
 * the garbage collector writes on its way to deleting an object (owner references, finalizers; and
 * selfLink, which is never stored). Such an update of a role or binding is not checked for
 * escalation: it grants nothing, and the collector must be able to finish any object.
 */
final class GarbageCollectionFields {

    private static final List<String> FIELDS = List.of("ownerReferences", "finalizers", "selfLink");

    private GarbageCollectionFields() {}

    /** Whether {@code object} differs from {@code old} only in those fields; false on a create. */
    static boolean onlyThoseChange(ObjectNode object, ObjectNode old) {
        if (old == null || object == null) {
            return false;
        }
        ObjectNode copied = object.deepCopy();
        ObjectNode meta = ObjectMeta.of(copied);
        JsonNode oldMeta = old.path("metadata");
        for (String field : FIELDS) {
            JsonNode kept = oldMeta.get(field);
            if (kept == null) {
                meta.remove(field);
            } else {
                meta.set(field, kept.deepCopy());
            }
        }
        return SemanticJson.equal(copied, old);
    }
}
