package io.kubepekko.api.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.NameRule;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.FieldError;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Generic {@code metadata} validation of every object, as apimachinery's {@code ValidateObjectMeta}
 * and {@code ValidateObjectMetaUpdate} (plus core's rule for unqualified finalizer names). Runs
 * before the kind's own {@code Strategy} validation.
 */
public final class ObjectMetaValidation {
    private ObjectMetaValidation() {}

    /** Maximum total size of all annotation keys and values, in bytes. */
    public static final int TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

    public static final String FIELD_IMMUTABLE = "field is immutable";
    public static final String IS_NEGATIVE = "must be greater than or equal to 0";

    private static final FieldPath META = FieldPath.of("metadata");
    private static final Set<String> STANDARD_FINALIZERS =
            Set.of("kubernetes", "orphan", "foregroundDeletion");
    private static final int FIELD_MANAGER_MAX_LENGTH = 128;
    private static final int MAX_SUBRESOURCE_NAME_LENGTH = 256;

    /**
     * Metadata of a new object. A missing {@code name} is accepted when {@code generateName} is
     * set, because the name is generated afterwards by the write pipeline.
     */
    public static List<FieldError> validateCreate(ResourceType type, ObjectNode obj) {
        JsonNode m = meta(obj);
        List<FieldError> errs = new ArrayList<>();
        String name = text(m, "name");
        String generateName = text(m, "generateName");
        if (!generateName.isEmpty()) {
            for (String msg : NameValidation.name(type.nameRule(), generateName, true)) {
                errs.add(
                        FieldError.invalid(
                                META.child("generateName").toString(), generateName, msg));
            }
        }
        if (name.isEmpty()) {
            if (generateName.isEmpty()) {
                errs.add(
                        FieldError.required(
                                META.child("name").toString(), "name or generateName is required"));
            }
        } else {
            errs.addAll(nameErrors(type.nameRule(), name));
        }
        errs.addAll(common(type, m));
        return errs;
    }

    /**
     * Metadata of an update: the create rules that still apply, plus the immutable system fields.
     */
    public static List<FieldError> validateUpdate(
            ResourceType type, ObjectNode obj, ObjectNode old) {
        JsonNode m = meta(obj);
        JsonNode o = meta(old);
        List<FieldError> errs = new ArrayList<>();
        if (isSet(o, "deletionTimestamp")) {
            errs.addAll(
                    noNewFinalizers(strings(m.get("finalizers")), strings(o.get("finalizers"))));
        }
        long gen = m.path("generation").asLong(0);
        if (gen < o.path("generation").asLong(0)) {
            errs.add(
                    FieldError.invalid(
                            META.child("generation").toString(), gen, "must not be decremented"));
        }
        for (String f :
                List.of(
                        "name",
                        "namespace",
                        "uid",
                        "creationTimestamp",
                        "deletionTimestamp",
                        "deletionGracePeriodSeconds")) {
            JsonNode now = m.path(f);
            JsonNode before = o.path(f);
            if (!sameValue(now, before)) {
                errs.add(
                        FieldError.invalid(META.child(f).toString(), scalar(now), FIELD_IMMUTABLE));
            }
        }
        errs.addAll(common(type, m));
        return errs;
    }

    /** The name errors for a kind's rule, each as {@code metadata.name: Invalid value: ...}. */
    public static List<FieldError> nameErrors(NameRule rule, String name) {
        List<FieldError> errs = new ArrayList<>();
        for (String msg : NameValidation.name(rule, name, false)) {
            errs.add(FieldError.invalid(META.child("name").toString(), name, msg));
        }
        return errs;
    }

    /** Annotation keys (qualified names, case-insensitive) and their total size. */
    public static List<FieldError> annotations(JsonNode annotations, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (annotations == null || !annotations.isObject()) {
            return errs;
        }
        long total = 0;
        var it = annotations.properties().iterator();
        while (it.hasNext()) {
            var e = it.next();
            for (String msg : NameValidation.qualifiedName(NameValidation.lower(e.getKey()))) {
                errs.add(FieldError.invalid(path.toString(), e.getKey(), msg));
            }
            total +=
                    NameValidation.byteLength(e.getKey())
                            + NameValidation.byteLength(
                                    e.getValue().isNull() ? "" : e.getValue().asText());
        }
        if (total > TOTAL_ANNOTATION_SIZE_LIMIT) {
            errs.add(FieldError.tooLong(path.toString(), TOTAL_ANNOTATION_SIZE_LIMIT));
        }
        return errs;
    }

    /** Finalizer names: qualified names, never both orphan and foregroundDeletion. */
    public static List<FieldError> finalizers(
            JsonNode finalizers, FieldPath path, boolean builtinKind) {
        List<FieldError> errs = new ArrayList<>();
        List<String> names = strings(finalizers);
        for (String f : names) {
            for (String msg : NameValidation.qualifiedName(f)) {
                errs.add(FieldError.invalid(path.toString(), f, msg));
            }
        }
        if (names.contains("orphan") && names.contains("foregroundDeletion")) {
            errs.add(
                    FieldError.invalid(
                            path.toString(),
                            BadValue.of(finalizers),
                            "finalizer orphan and foregroundDeletion cannot be both set"));
        }
        if (builtinKind) {
            for (int i = 0; i < names.size(); i++) {
                String f = names.get(i);
                if (!f.contains("/") && !STANDARD_FINALIZERS.contains(f)) {
                    errs.add(
                            FieldError.invalid(
                                    path.index(i).toString(),
                                    f,
                                    "name is neither a standard finalizer name nor is it fully qualified"));
                }
            }
        }
        return errs;
    }

    private static List<FieldError> common(ResourceType type, JsonNode m) {
        List<FieldError> errs = new ArrayList<>();
        String namespace = text(m, "namespace");
        if (type.namespaced()) {
            if (namespace.isEmpty()) {
                errs.add(FieldError.required(META.child("namespace").toString(), ""));
            } else {
                for (String msg : NameValidation.dns1123Label(namespace)) {
                    errs.add(
                            FieldError.invalid(META.child("namespace").toString(), namespace, msg));
                }
            }
        } else if (!namespace.isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            META.child("namespace").toString(), "not allowed on this type"));
        }
        long gen = m.path("generation").asLong(0);
        if (gen < 0) {
            errs.add(FieldError.invalid(META.child("generation").toString(), gen, IS_NEGATIVE));
        }
        errs.addAll(LabelValidation.labels(m.get("labels"), META.child("labels")));
        errs.addAll(annotations(m.get("annotations"), META.child("annotations")));
        errs.addAll(ownerReferences(m.get("ownerReferences"), META.child("ownerReferences")));
        errs.addAll(finalizers(m.get("finalizers"), META.child("finalizers"), true));
        errs.addAll(managedFields(m.get("managedFields"), META.child("managedFields")));
        return errs;
    }

    private static List<FieldError> ownerReferences(JsonNode refs, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (refs == null || !refs.isArray()) {
            return errs;
        }
        String firstController = null;
        for (JsonNode ref : refs) {
            String apiVersion = ref.path("apiVersion").asText("");
            String kind = ref.path("kind").asText("");
            String version =
                    apiVersion.contains("/")
                            ? apiVersion.substring(apiVersion.indexOf('/') + 1)
                            : apiVersion;
            String group =
                    apiVersion.contains("/")
                            ? apiVersion.substring(0, apiVersion.indexOf('/'))
                            : "";
            if (version.isEmpty()) {
                errs.add(
                        FieldError.invalid(
                                path.child("apiVersion").toString(),
                                apiVersion,
                                "version must not be empty"));
            }
            if (kind.isEmpty()) {
                errs.add(
                        FieldError.invalid(
                                path.child("kind").toString(), kind, "must not be empty"));
            }
            String name = ref.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(
                        FieldError.invalid(
                                path.child("name").toString(), name, "must not be empty"));
            }
            String uid = ref.path("uid").asText("");
            if (uid.isEmpty()) {
                errs.add(
                        FieldError.invalid(path.child("uid").toString(), uid, "must not be empty"));
            }
            if (group.isEmpty() && version.equals("v1") && kind.equals("Event")) {
                errs.add(
                        FieldError.invalid(
                                path.toString(),
                                BadValue.of(ref),
                                "/v1, Kind=Event is disallowed from being an owner"));
            }
            if (ref.path("controller").asBoolean(false)) {
                String current = kind + "/" + name;
                if (firstController != null) {
                    errs.add(
                            FieldError.invalid(
                                    path.toString(),
                                    BadValue.of(refs),
                                    "Only one reference can have Controller set to true. Found \"true\" in references for "
                                            + firstController
                                            + " and "
                                            + current));
                } else {
                    firstController = current;
                }
            }
        }
        return errs;
    }

    /**
     * kube's {@code ValidateManagedFields} of {@code metadata.managedFields} ({@code entries}, an
     * array or absent): each entry's operation, fieldsType, manager and subresource.
     */
    public static List<FieldError> managedFields(JsonNode entries) {
        return managedFields(entries, META.child("managedFields"));
    }

    private static List<FieldError> managedFields(JsonNode entries, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (entries == null || !entries.isArray()) {
            return errs;
        }
        for (int i = 0; i < entries.size(); i++) {
            JsonNode e = entries.get(i);
            FieldPath p = path.index(i);
            String op = e.path("operation").asText("");
            if (!op.equals("Apply") && !op.equals("Update")) {
                errs.add(
                        FieldError.invalid(
                                p.child("operation").toString(),
                                op,
                                "must be `Apply` or `Update`"));
            }
            String fieldsType = e.path("fieldsType").asText("");
            if (!fieldsType.isEmpty() && !fieldsType.equals("FieldsV1")) {
                errs.add(
                        FieldError.invalid(
                                p.child("fieldsType").toString(),
                                fieldsType,
                                "must be `FieldsV1`"));
            }
            if (e.path("manager").asText("").length() > FIELD_MANAGER_MAX_LENGTH) {
                errs.add(
                        FieldError.tooLong(
                                p.child("manager").toString(), FIELD_MANAGER_MAX_LENGTH));
            }
            if (e.path("subresource").asText("").length() > MAX_SUBRESOURCE_NAME_LENGTH) {
                errs.add(
                        FieldError.tooLong(
                                p.child("subresource").toString(), MAX_SUBRESOURCE_NAME_LENGTH));
            }
        }
        return errs;
    }

    private static List<FieldError> noNewFinalizers(List<String> now, List<String> before) {
        Set<String> extra = new TreeSet<>(now);
        extra.removeAll(new LinkedHashSet<>(before));
        if (extra.isEmpty()) {
            return List.of();
        }
        String goSlice =
                extra.stream()
                        .map(FieldError::quote)
                        .collect(Collectors.joining(", ", "[]string{", "}"));
        return List.of(
                FieldError.forbidden(
                        META.child("finalizers").toString(),
                        "no new finalizers can be added if the object is being deleted, found new finalizers "
                                + goSlice));
    }

    private static JsonNode meta(ObjectNode obj) {
        JsonNode m = obj == null ? null : obj.get("metadata");
        return m == null || !m.isObject() ? MissingNode.getInstance() : m;
    }

    private static String text(JsonNode m, String field) {
        JsonNode v = m.get(field);
        return v == null || v.isNull() ? "" : v.asText();
    }

    private static boolean isSet(JsonNode m, String field) {
        JsonNode v = m.get(field);
        return v != null && !v.isNull() && !v.asText().isEmpty();
    }

    /** Absent, null and "" are the same unset value (Go's zero value). */
    private static boolean sameValue(JsonNode a, JsonNode b) {
        boolean aUnset = a.isMissingNode() || a.isNull() || (a.isTextual() && a.asText().isEmpty());
        boolean bUnset = b.isMissingNode() || b.isNull() || (b.isTextual() && b.asText().isEmpty());
        if (aUnset || bUnset) {
            return aUnset && bUnset;
        }
        return a.equals(b);
    }

    private static Object scalar(JsonNode v) {
        if (v.isMissingNode() || v.isNull()) {
            return "";
        }
        if (v.isIntegralNumber()) {
            return v.asLong();
        }
        return v.isTextual() ? v.asText() : BadValue.of(v);
    }

    private static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        if (arr != null && arr.isArray()) {
            arr.forEach(n -> out.add(n.asText()));
        }
        return out;
    }
}
