package io.kubepekko.api.auth.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import java.time.OffsetDateTime;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Go's {@code %#v} of the few structs kube's review validation prints as a bad value ({@code
 * field.Invalid(path, sar.ObjectMeta, "must be empty")}), so the messages read as kube's. Fields Go
 * would print as a pointer address (a set {@code deletionGracePeriodSeconds}, owner references,
 * managed fields) cannot be matched and are printed as Go prints their zero value.
 */
final class GoSyntax {
    private GoSyntax() {}

    /** {@code metav1.ObjectMeta} from its JSON form. */
    static String objectMeta(JsonNode m) {
        List<String> f = new ArrayList<>();
        for (String name :
                List.of(
                        "name",
                        "generateName",
                        "namespace",
                        "selfLink",
                        "uid",
                        "resourceVersion")) {
            String goName = name.equals("uid") ? "UID" : upper(name);
            f.add(goName + ":" + FieldError.quote(m.path(name).asText("")));
        }
        f.add("Generation:" + m.path("generation").asLong(0));
        f.add("CreationTimestamp:" + time(m.path("creationTimestamp")));
        JsonNode deletion = m.path("deletionTimestamp");
        f.add("DeletionTimestamp:" + (deletion.isTextual() ? time(deletion) : "<nil>"));
        f.add("DeletionGracePeriodSeconds:(*int64)(nil)");
        f.add("Labels:" + stringMap(m.path("labels")));
        f.add("Annotations:" + stringMap(m.path("annotations")));
        f.add("OwnerReferences:[]v1.OwnerReference(nil)");
        f.add("Finalizers:" + strings(m.path("finalizers")));
        f.add("ManagedFields:[]v1.ManagedFieldsEntry(nil)");
        return "v1.ObjectMeta{" + String.join(", ", f) + "}";
    }

    /** {@code authorization.NonResourceAttributes} from its JSON form. */
    static String nonResourceAttributes(JsonNode a) {
        return "authorization.NonResourceAttributes{Path:"
                + FieldError.quote(a.path("path").asText(""))
                + ", Verb:"
                + FieldError.quote(a.path("verb").asText(""))
                + "}";
    }

    private static String upper(String name) {
        return Character.toUpperCase(name.charAt(0)) + name.substring(1);
    }

    /**
     * {@code time.Time}'s GoString: the zero time is UTC; a decoded one is in the server's local
     * zone, which Go names {@code time.Local}.
     */
    private static String time(JsonNode value) {
        if (!value.isTextual()) {
            return "time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)";
        }
        OffsetDateTime t;
        try {
            t = OffsetDateTime.parse(value.asText());
        } catch (RuntimeException e) {
            return "time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)";
        }
        return "time.Date("
                + t.getYear()
                + ", time."
                + t.getMonth().getDisplayName(TextStyle.FULL, Locale.ROOT)
                + ", "
                + t.getDayOfMonth()
                + ", "
                + t.getHour()
                + ", "
                + t.getMinute()
                + ", "
                + t.getSecond()
                + ", "
                + t.getNano()
                + ", time.Local)";
    }

    private static String stringMap(JsonNode map) {
        if (!map.isObject() || map.isEmpty()) {
            return map.isObject() ? "map[string]string{}" : "map[string]string(nil)";
        }
        TreeMap<String, String> sorted = new TreeMap<>();
        map.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText("")));
        List<String> entries = new ArrayList<>();
        sorted.forEach((k, v) -> entries.add(FieldError.quote(k) + ":" + FieldError.quote(v)));
        return "map[string]string{" + String.join(", ", entries) + "}";
    }

    private static String strings(JsonNode list) {
        if (!list.isArray()) {
            return "[]string(nil)";
        }
        List<String> items = new ArrayList<>();
        list.forEach(i -> items.add(FieldError.quote(i.asText(""))));
        return "[]string{" + String.join(", ", items) + "}";
    }
}
