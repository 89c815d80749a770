package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Server-side apply (structured-merge-diff's Apply): merges an applied configuration into the live
 * object, records the applier as owner of exactly the fields it applied, removes fields it applied
 * before and omits now when nobody else owns them, and refuses, with one conflict per field, to
 * change a value another manager owns unless forced. Forcing moves those fields to the applier;
 * applying a value equal to the live one shares ownership.
 *
 * <p>For the manager {@code kubectl}, fields whose value still matches the object's {@code
 * kubectl.kubernetes.io/last-applied-configuration} do not conflict, and that annotation is kept in
 * step with what is applied, as kube-apiserver does for clients moving from client-side to
 * server-side apply.
 */
public final class ServerSideApply {

    /** The annotation client-side apply keeps; kubectl's server-side apply keeps it current. */
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    private static final String KUBECTL = "kubectl";

    /**
     * One apply.
     *
     * @param manager the applier ({@code fieldManager})
     * @param subresource {@code status} for an apply to the status subresource, else null
     * @param apiVersion the group version applied
     * @param time the write's time, RFC 3339
     * @param force whether conflicts move ownership instead of failing
     */
    public record Request(
            String manager, String subresource, String apiVersion, String time, boolean force) {}

    /**
     * The merged object (without managedFields), the managers after the apply, and whether fields
     * the applier stopped applying were removed (which may leave empty maps or lists behind).
     */
    public record Result(ObjectNode object, List<ManagedFields.Entry> entries, boolean removed)
            implements Outcome {}

    /**
     * What an apply comes to: the merged {@link Result}, or the {@link Conflicts} that refuse it.
     */
    public sealed interface Outcome permits Result, Conflicts {}

    /**
     * The apply is refused: it would change fields other managers own, and it was not forced.
     *
     * @param conflicts one per conflicting field, in the order Kubernetes reports them
     */
    public record Conflicts(List<ApplyConflicts.Conflict> conflicts) implements Outcome {
        /** Kubernetes' 409 Conflict listing the fields and their owners. */
        public ApiStatus status() {
            return ApplyConflicts.status(conflicts);
        }
    }

    private final TypedFields fields;
    private final StructuredMerge merge;
    private final FieldRemoval removal;

    public ServerSideApply(MergeMetadata metadata) {
        this.fields = new TypedFields(metadata);
        this.merge = new StructuredMerge(metadata);
        this.removal = new FieldRemoval(metadata);
    }

    /**
     * Applies {@code config} to {@code live} (without managedFields; an empty object for a create).
     *
     * @param type the protobuf message of the kind, or null for an untyped object
     * @return the merged result, or the conflicts when the apply may not take fields others own
     */
    public Outcome apply(
            ObjectNode live,
            List<ManagedFields.Entry> entries,
            ObjectNode config,
            String type,
            Request request) {
        return apply(live, entries, config, type, request, VersionConverter.NONE);
    }

    /**
     * Applies {@code config} to {@code live} (both in the request's version) for a kind served in
     * several versions: a manager who wrote through another version owns fields of that version, so
     * its conflicts and the fields the apply removes from it are found by comparing the object as
     * that version has it, and an applier whose last apply was through another version has the
     * fields it omits now removed in that version (structured-merge-diff's {@code prune}).
     */
    public Outcome apply(
            ObjectNode live,
            List<ManagedFields.Entry> entries,
            ObjectNode config,
            String type,
            Request request,
            VersionConverter versions) {
        boolean status = "status".equals(request.subresource());
        ObjectNode scoped = scope(config, status);
        FieldSet applied = fields.applied(scoped, type);

        ManagedFields.Entry own = null;
        List<ManagedFields.Entry> others = new ArrayList<>();
        for (ManagedFields.Entry e : entries) {
            if (e.sameOwner(request.manager(), "Apply", request.subresource())) {
                own = e;
            } else {
                others.add(e);
            }
        }
        ObjectNode merged = merge.merge(live, scoped, type);
        boolean removes = false;
        if (own != null) {
            Pruned pruned = prune(merged, scoped, applied, own, others, type, versions);
            merged = pruned.object();
            removes = pruned.removed();
        }

        TypedFields.Comparison changes = fields.compare(live, merged, type);
        Map<String, TypedFields.Comparison> byVersion = new HashMap<>();
        ObjectNode before = live;
        ObjectNode after = merged;
        Function<ManagedFields.Entry, TypedFields.Comparison> changesOf =
                e ->
                        byVersion.computeIfAbsent(
                                e.apiVersion(),
                                v -> {
                                    Optional<VersionConverter.Converted> was =
                                            versions.convert(before, v);
                                    if (was.isEmpty()) {
                                        return changes;
                                    }
                                    return fields.compare(
                                            was.get().object(),
                                            versions.convert(after, v).orElseThrow().object(),
                                            was.get().type());
                                });
        Map<ManagedFields.Entry, FieldSet> conflicts = new LinkedHashMap<>();
        for (ManagedFields.Entry e : others) {
            TypedFields.Comparison c = changesOf.apply(e);
            FieldSet conflict = e.fields().intersection(c.added().union(c.modified()));
            if (!conflict.isEmpty()) {
                conflicts.put(e, conflict);
            }
        }
        if (!conflicts.isEmpty()
                && !request.force()
                && !allowedByLastApplied(live, conflicts, type, request)) {
            return new Conflicts(ApplyConflicts.sorted(conflicts));
        }
        boolean objectChanged = !live.equals(merged);
        List<ManagedFields.Entry> out = new ArrayList<>();
        if (!applied.isEmpty()) {
            String time =
                    objectChanged || own == null || own.time() == null
                            ? request.time()
                            : own.time();
            out.add(
                    new ManagedFields.Entry(
                            request.manager(),
                            "Apply",
                            request.apiVersion(),
                            time,
                            request.subresource(),
                            applied));
        }
        for (ManagedFields.Entry e : others) {
            FieldSet taken = conflicts.getOrDefault(e, FieldSet.EMPTY);
            FieldSet kept = e.fields().difference(taken).difference(changesOf.apply(e).removed());
            if (!kept.isEmpty()) {
                out.add(
                        kept.equals(e.fields())
                                ? e
                                : new ManagedFields.Entry(
                                        e.manager(),
                                        e.operation(),
                                        e.apiVersion(),
                                        e.time(),
                                        e.subresource(),
                                        kept));
            }
        }
        if (KUBECTL.equals(request.manager()) && lastApplied(live) != null) {
            ObjectNode annotations =
                    merged.withObjectProperty("metadata").withObjectProperty("annotations");
            annotations.put(LAST_APPLIED, lastAppliedValue(config));
        }
        return new Result(merged, out, removes);
    }

    /** A merged object after the removal of what its applier stopped applying. */
    private record Pruned(ObjectNode object, boolean removed) {}

    /**
     * Removes the fields the applier applied last time ({@code own}) and omits now, unless another
     * manager owns them; nothing when this apply names everything the last one did (the usual
     * re-apply). The fields of an apply through another version are paths of that version, so the
     * object is pruned as that version has it, keeping what this apply and that version's other
     * managers own.
     */
    private Pruned prune(
            ObjectNode merged,
            ObjectNode scoped,
            FieldSet applied,
            ManagedFields.Entry own,
            List<ManagedFields.Entry> others,
            String type,
            VersionConverter versions) {
        Optional<VersionConverter.Converted> inLast = versions.convert(merged, own.apiVersion());
        if (inLast.isPresent()) {
            String lastType = inLast.get().type();
            FieldSet owned =
                    fields.applied(
                            versions.convert(scoped, own.apiVersion()).orElseThrow().object(),
                            lastType);
            if (own.fields().difference(owned).isEmpty()) {
                return new Pruned(merged, false);
            }
            for (ManagedFields.Entry e : others) {
                if (e.apiVersion().equals(own.apiVersion())) {
                    owned = owned.union(e.fields());
                }
            }
            ObjectNode pruned =
                    removal.prune(inLast.get().object().deepCopy(), lastType, own.fields(), owned);
            return new Pruned(versions.back(pruned, own.apiVersion()), true);
        }
        if (own.fields().difference(applied).isEmpty()) {
            return new Pruned(merged, false);
        }
        FieldSet owned = applied;
        for (ManagedFields.Entry e : others) {
            if (versions.convert(merged, e.apiVersion()).isEmpty()) {
                owned = owned.union(e.fields());
            }
        }
        return new Pruned(removal.prune(merged, type, own.fields(), owned), true);
    }

    /**
     * What an apply may set: the main resource never takes status from it, the status subresource
     * only status.
     */
    private static ObjectNode scope(ObjectNode config, boolean status) {
        ObjectNode scoped = config.deepCopy();
        if (status) {
            scoped.retain("apiVersion", "kind", "metadata", "status");
            JsonNode meta = scoped.get("metadata");
            if (meta instanceof ObjectNode m) {
                m.retain("name", "namespace");
            }
        } else {
            scoped.remove("status");
        }
        return scoped;
    }

    /**
     * kubectl moving an object from client-side apply: conflicts are forgiven when every
     * conflicting field is one the last-applied configuration set and the live object still has
     * that value.
     */
    private boolean allowedByLastApplied(
            ObjectNode live,
            Map<ManagedFields.Entry, FieldSet> conflicts,
            String type,
            Request request) {
        if (!KUBECTL.equals(request.manager())) {
            return false;
        }
        String text = lastApplied(live);
        if (text == null) {
            return false;
        }
        ObjectNode last;
        try {
            last = Json.parseTrusted(text.getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return false; // not JSON: nothing to forgive by
        }
        if (!request.apiVersion().equals(last.path("apiVersion").asText())) {
            return false;
        }
        TypedFields.Comparison differences = fields.compare(last, live, type);
        FieldSet allowed =
                fields.fields(last, type)
                        .difference(differences.modified())
                        .difference(differences.added())
                        .difference(differences.removed());
        for (FieldSet c : conflicts.values()) {
            if (!c.difference(allowed).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static String lastApplied(ObjectNode object) {
        JsonNode v = object.path("metadata").path("annotations").get(LAST_APPLIED);
        return v != null && v.isTextual() && !v.asText().isEmpty() ? v.asText() : null;
    }

    /**
     * The applied configuration as the annotation holds it: compact JSON, keys sorted, without
     * itself.
     */
    private static String lastAppliedValue(ObjectNode config) {
        ObjectNode copy = config.deepCopy();
        JsonNode annotations = copy.path("metadata").get("annotations");
        if (annotations instanceof ObjectNode a) {
            a.remove(LAST_APPLIED);
            if (a.isEmpty()) {
                ((ObjectNode) copy.get("metadata")).remove("annotations");
            }
        }
        return Json.string(sortedKeys(copy)) + "\n";
    }

    private static JsonNode sortedKeys(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            node.properties()
                    .iterator()
                    .forEachRemaining(e -> sorted.put(e.getKey(), sortedKeys(e.getValue())));
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            sorted.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            var out = JsonNodeFactory.instance.arrayNode();
            node.forEach(v -> out.add(sortedKeys(v)));
            return out;
        }
        return node;
    }
}
