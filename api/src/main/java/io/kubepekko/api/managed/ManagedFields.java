package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code metadata.managedFields}: who owns which fields. This is the Update half of server-side
 * apply's bookkeeping: a non-apply write takes the fields it added or changed from whoever owned
 * them (never a conflict), fields it removed leave every owner, and a manager left with no fields
 * disappears. Writes to the main resource never own {@code status}; {@code /status} writes own only
 * {@code status}.
 */
public final class ManagedFields {
    private ManagedFields() {}

    /** One entry, as {@code metadata.managedFields} stores it. */
    public record Entry(
            String manager,
            String operation,
            String apiVersion,
            String time,
            String subresource,
            FieldSet fields) {

        boolean sameOwner(String manager, String operation, String subresource) {
            return this.manager.equals(manager)
                    && this.operation.equals(operation)
                    && Objects.equals(emptyToNull(this.subresource), emptyToNull(subresource));
        }
    }

    /** The entries of an object's {@code metadata.managedFields} (absent: none). */
    public static List<Entry> of(JsonNode object) {
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : object.path("metadata").path("managedFields")) {
            out.add(
                    new Entry(
                            e.path("manager").asText(""),
                            e.path("operation").asText(""),
                            e.path("apiVersion").asText(""),
                            e.path("time").isTextual() ? e.path("time").asText() : null,
                            e.path("subresource").isTextual()
                                    ? e.path("subresource").asText()
                                    : null,
                            FieldSet.fromFieldsV1(e.path("fieldsV1"))));
        }
        return out;
    }

    /**
     * The entries after an Update by {@code manager}: {@code changes} compares the object before
     * and after the write.
     */
    public static List<Entry> update(
            List<Entry> entries,
            String manager,
            String subresource,
            String apiVersion,
            String time,
            TypedFields.Comparison changes) {
        return update(entries, manager, subresource, apiVersion, time, changes, Map.of());
    }

    /**
     * The entries after an Update by {@code manager} through {@code apiVersion}, for a kind served
     * in several versions: {@code changes} compares the object before and after the write in {@code
     * apiVersion}, {@code otherVersions} compares it in each other version of the kind an entry was
     * written through, whose fields are paths of that version (structured-merge-diff compares the
     * object in every manager's version). An Update entry is the manager's own only in the write's
     * version (kube's manager identifier holds an Update's apiVersion); entries of a version
     * neither names are compared as the write's.
     */
    public static List<Entry> update(
            List<Entry> entries,
            String manager,
            String subresource,
            String apiVersion,
            String time,
            TypedFields.Comparison changes,
            Map<String, TypedFields.Comparison> otherVersions) {
        boolean status = "status".equals(subresource);
        List<Entry> out = new ArrayList<>();
        Entry own = null;
        for (Entry e : entries) {
            TypedFields.Comparison inVersion = otherVersions.get(e.apiVersion());
            if (inVersion == null && e.sameOwner(manager, "Update", subresource)) {
                own = e;
                continue;
            }
            TypedFields.Comparison c = inVersion == null ? changes : inVersion;
            FieldSet kept =
                    e.fields()
                            .difference(scope(c.added().union(c.modified()), status))
                            .difference(c.removed());
            if (!kept.isEmpty()) {
                out.add(
                        kept.equals(e.fields())
                                ? e
                                : new Entry(
                                        e.manager(),
                                        e.operation(),
                                        e.apiVersion(),
                                        e.time(),
                                        e.subresource(),
                                        kept));
            }
        }
        FieldSet addedOrModified = scope(changes.added().union(changes.modified()), status);
        FieldSet mine =
                (own == null ? FieldSet.EMPTY : own.fields())
                        .union(addedOrModified)
                        .difference(changes.removed());
        if (!mine.isEmpty()) {
            boolean changed = own == null || !mine.equals(own.fields());
            Entry updated =
                    new Entry(
                            manager,
                            "Update",
                            apiVersion,
                            changed || own.time() == null ? time : own.time(),
                            emptyToNull(subresource),
                            mine);
            int at = own == null ? out.size() : Math.min(entries.indexOf(own), out.size());
            out.add(at, updated);
        }
        return out;
    }

    /** Main-resource writes never own status; status writes own only status. */
    private static FieldSet scope(FieldSet fields, boolean statusWrite) {
        return statusWrite ? fields.only("f:status") : fields.without("f:status");
    }

    /**
     * Kubernetes' order of entries (it keeps managers in a map and sorts them when it writes them):
     * by operation (Apply before Update), time to the second, manager, apiVersion and subresource.
     */
    static final Comparator<Entry> ORDER =
            Comparator.comparing(Entry::operation)
                    .thenComparingLong(e -> epochSecond(e.time()))
                    .thenComparing(Entry::manager)
                    .thenComparing(Entry::apiVersion)
                    .thenComparing(e -> e.subresource() == null ? "" : e.subresource());

    private static long epochSecond(String time) {
        if (time == null) {
            return 0;
        }
        try {
            return Instant.parse(time).getEpochSecond();
        } catch (DateTimeParseException e) {
            return 0; // client-supplied entries are taken as they are
        }
    }

    /** The entries as {@code metadata.managedFields} JSON, in Kubernetes' order. */
    public static ArrayNode render(List<Entry> entries) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        List<Entry> sorted = new ArrayList<>(entries);
        sorted.sort(ORDER);
        for (Entry e : sorted) {
            ObjectNode o = out.addObject();
            o.put("manager", e.manager());
            o.put("operation", e.operation());
            o.put("apiVersion", e.apiVersion());
            if (e.time() != null) {
                o.put("time", e.time());
            }
            o.put("fieldsType", "FieldsV1");
            o.set("fieldsV1", e.fields().toFieldsV1());
            if (e.subresource() != null && !e.subresource().isEmpty()) {
                o.put("subresource", e.subresource());
            }
        }
        return out;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
