package io.kubepekko.api.schema;

import com.google.gson.annotations.SerializedName;
import io.kubepekko.api.GroupVersionKind;
import io.swagger.annotations.ApiModel;
import io.swagger.annotations.ApiModelProperty;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Structural schemas of the built-in kinds, derived by reflection from the official Kubernetes Java
 * client's generated models ({@code io.kubernetes.client.openapi.models}). Those classes carry
 * every field's JSON name ({@code @SerializedName}), Java type, documentation
 * ({@code @ApiModelProperty}) and the required fields, which is all a structural schema needs.
 *
 * <p>Schemas are built on first use and cached; a kind's whole type graph takes a few milliseconds.
 */
public final class ModelSchemas {
    private ModelSchemas() {}

    private static final String MODELS = "io.kubernetes.client.openapi.models.";
    private static final String INT_OR_STRING = "io.kubernetes.client.custom.IntOrString";
    private static final String QUANTITY = "io.kubernetes.client.custom.Quantity";

    /**
     * Kinds whose model class does not follow {@code V<version><Kind>}: the client prefixes a group
     * name when two groups define the same kind.
     */
    private static final Map<GroupVersionKind, String> CLASS_OVERRIDES =
            Map.of(
                    new GroupVersionKind("", "v1", "Event"), "CoreV1Event",
                    new GroupVersionKind("events.k8s.io", "v1", "Event"), "EventsV1Event");

    /**
     * Model class name prefix + type name, e.g. {@code CoreV1Event} → ({@code v1}, {@code Event}).
     */
    private static final Pattern MODEL_NAME =
            Pattern.compile("^(?:[A-Z][a-z]+)*?(V\\d+(?:(?:alpha|beta)\\d+)?)([A-Z]\\w*)$");

    private static final Map<GroupVersionKind, Optional<SchemaNode>> BY_KIND =
            new ConcurrentHashMap<>();

    /** Object schemas by model class; only touched while holding the class lock. */
    private static final Map<Class<?>, SchemaNode> BY_CLASS = new HashMap<>();

    /** The schema of a kind, or empty when no model class is known for it. */
    public static Optional<SchemaNode> forKind(GroupVersionKind gvk) {
        Optional<SchemaNode> cached = BY_KIND.get(gvk);
        if (cached != null) {
            return cached;
        }
        Optional<SchemaNode> built = modelClass(gvk).map(ModelSchemas::build);
        BY_KIND.putIfAbsent(gvk, built);
        return built;
    }

    /**
     * The schema of a model that is not a kind, by its class's simple name ({@code V1ListMeta}), or
     * empty when the client has no such model.
     */
    public static Optional<SchemaNode> forModel(String simpleName) {
        try {
            Class<?> c =
                    Class.forName(MODELS + simpleName, false, ModelSchemas.class.getClassLoader());
            return Optional.of(build(c));
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    /** The model class that describes a kind, if any. */
    public static Optional<Class<?>> modelClass(GroupVersionKind gvk) {
        String override = CLASS_OVERRIDES.get(gvk);
        if (override != null) {
            return load(override);
        }
        String version = capitalize(gvk.version());
        if (gvk.kind().equals("DeleteOptions")) {
            // DeleteOptions is registered in every group version; the client has only meta's.
            return load(version + "DeleteOptions");
        }
        String groupPrefix =
                gvk.group().isEmpty() ? "Core" : capitalize(gvk.group().split("\\.")[0]);
        Optional<Class<?>> prefixed = load(groupPrefix + version + gvk.kind());
        return prefixed.isPresent() ? prefixed : load(version + gvk.kind());
    }

    private static Optional<Class<?>> load(String simpleName) {
        try {
            Class<?> c =
                    Class.forName(MODELS + simpleName, false, ModelSchemas.class.getClassLoader());
            return hasJsonField(c, "kind") ? Optional.of(c) : Optional.empty();
        } catch (ClassNotFoundException e) {
            return Optional.empty();
        }
    }

    private static boolean hasJsonField(Class<?> c, String jsonName) {
        for (Field f : c.getDeclaredFields()) {
            SerializedName n = f.getAnnotation(SerializedName.class);
            if (n != null && !Modifier.isStatic(f.getModifiers()) && n.value().equals(jsonName)) {
                return true;
            }
        }
        return false;
    }

    private static synchronized SchemaNode build(Class<?> modelClass) {
        return objectSchema(modelClass);
    }

    private static SchemaNode objectSchema(Class<?> c) {
        SchemaNode existing = BY_CLASS.get(c);
        if (existing != null) {
            return existing;
        }
        ApiModel model = c.getAnnotation(ApiModel.class);
        SchemaNode node =
                SchemaNode.objectPlaceholder(
                        goTypeName(c), model == null ? null : emptyToNull(model.description()));
        BY_CLASS.put(c, node);
        Map<String, SchemaNode> props = new LinkedHashMap<>();
        for (Field f : c.getDeclaredFields()) {
            SerializedName name = f.getAnnotation(SerializedName.class);
            if (name == null || Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            props.put(name.value(), schemaFor(f.getGenericType(), describe(c, f)));
        }
        node.define(props, requiredFields(c));
        return node;
    }

    private static SchemaNode schemaFor(Type type, String description) {
        if (type instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw) {
            Type[] args = p.getActualTypeArguments();
            if (Map.class.isAssignableFrom(raw) && args.length == 2) {
                return SchemaNode.map(schemaFor(args[1], null), description);
            }
            if (Collection.class.isAssignableFrom(raw) && args.length == 1) {
                return SchemaNode.array(schemaFor(args[0], null), description);
            }
            return SchemaNode.any(description);
        }
        if (!(type instanceof Class<?> c)) {
            return SchemaNode.any(description);
        }
        if (c == String.class || c.isEnum()) {
            return SchemaNode.scalar(SchemaNode.Type.STRING, "string", description);
        }
        if (c == Integer.class || c == int.class) {
            return SchemaNode.scalar(SchemaNode.Type.INTEGER, "int32", description);
        }
        if (c == Long.class || c == long.class) {
            return SchemaNode.scalar(SchemaNode.Type.INTEGER, "int64", description);
        }
        if (c == Boolean.class || c == boolean.class) {
            return SchemaNode.scalar(SchemaNode.Type.BOOLEAN, "bool", description);
        }
        if (c == Float.class || c == float.class) {
            return SchemaNode.scalar(SchemaNode.Type.NUMBER, "float32", description);
        }
        if (c == Double.class || c == double.class || c == BigDecimal.class) {
            return SchemaNode.scalar(SchemaNode.Type.NUMBER, "float64", description);
        }
        if (c == OffsetDateTime.class) {
            return SchemaNode.scalar(SchemaNode.Type.DATE_TIME, "v1.Time", description);
        }
        if (c == byte[].class) {
            return SchemaNode.scalar(SchemaNode.Type.BYTES, "[]uint8", description);
        }
        if (c.getName().equals(INT_OR_STRING)) {
            return SchemaNode.scalar(
                    SchemaNode.Type.INT_OR_STRING, "intstr.IntOrString", description);
        }
        if (c.getName().equals(QUANTITY)) {
            return SchemaNode.scalar(SchemaNode.Type.QUANTITY, "resource.Quantity", description);
        }
        if (c.getName().startsWith(MODELS)) {
            // A view with the field's own description (null if it has none), so a field never
            // passes its type's description off as its own.
            return SchemaNode.described(objectSchema(c), description);
        }
        // Object (RawExtension, FieldsV1, JSON) and anything unrecognised: keep what was sent.
        return SchemaNode.any(description);
    }

    private static Set<String> requiredFields(Class<?> c) {
        try {
            Object v = c.getField("openapiRequiredFields").get(null);
            if (v instanceof Collection<?> names) {
                Set<String> out = new LinkedHashSet<>();
                names.forEach(n -> out.add(String.valueOf(n)));
                return out;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // No list of required fields: nothing is required.
        }
        return Set.of();
    }

    private static String describe(Class<?> c, Field f) {
        String base = f.getName().startsWith("_") ? f.getName().substring(1) : f.getName();
        for (String getter : List.of("get" + capitalize(base), "is" + capitalize(base))) {
            try {
                Method m = c.getMethod(getter);
                ApiModelProperty p = m.getAnnotation(ApiModelProperty.class);
                if (p != null) {
                    return emptyToNull(p.value());
                }
            } catch (NoSuchMethodException e) {
                // try the next spelling
            }
        }
        return null;
    }

    /** {@code V1PodSpec} → {@code v1.PodSpec}, {@code CoreV1Event} → {@code v1.Event}. */
    static String goTypeName(Class<?> c) {
        Matcher m = MODEL_NAME.matcher(c.getSimpleName());
        if (!m.matches()) {
            return c.getSimpleName();
        }
        return m.group(1).toLowerCase(Locale.ROOT) + "." + m.group(2);
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
