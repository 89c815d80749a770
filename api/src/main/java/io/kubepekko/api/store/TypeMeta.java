package io.kubepekko.api.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.BuiltinKinds;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An object's {@code apiVersion} and {@code kind} against the kind its URL serves. Every write ends
 * with the URL's type meta on the object, whatever the body or the patch said: kube-apiserver
 * decodes each body and each JSON/merge-patched object into the URL's kind through its scheme,
 * which refuses a type it cannot convert to that kind, and it stores the object with its own type
 * meta.
 */
public final class TypeMeta {
    private TypeMeta() {}

    /** The name kube-apiserver's scheme has in its decoding errors. */
    static final String SCHEME = "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30";

    /**
     * The versions kube-apiserver's scheme registers per built-in group besides the served ones: a
     * body of another registered version of the same kind decodes (and converts), one of any other
     * version is "not registered".
     */
    private static final Map<String, List<String>> SCHEME_VERSIONS =
            Map.ofEntries(
                    Map.entry("", List.of("v1")),
                    Map.entry("apps", List.of("v1", "v1beta1", "v1beta2")),
                    Map.entry("autoscaling", List.of("v1", "v2", "v2beta1", "v2beta2")),
                    Map.entry("batch", List.of("v1", "v1beta1")),
                    Map.entry("coordination.k8s.io", List.of("v1", "v1beta1", "v1alpha2")),
                    Map.entry("events.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("networking.k8s.io", List.of("v1", "v1beta1")),
                    Map.entry("policy", List.of("v1", "v1beta1")),
                    Map.entry("rbac.authorization.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("scheduling.k8s.io", List.of("v1", "v1beta1", "v1alpha1")),
                    Map.entry("storage.k8s.io", List.of("v1", "v1beta1", "v1alpha1")));

    /**
     * The Go package of each group's internal types, which conversion errors name ({@code
     * core.Pod}).
     */
    private static final Map<String, String> INTERNAL_PACKAGES =
            Map.ofEntries(
                    Map.entry("", "core"),
                    Map.entry("apps", "apps"),
                    Map.entry("autoscaling", "autoscaling"),
                    Map.entry("batch", "batch"),
                    Map.entry("coordination.k8s.io", "coordination"),
                    // events.k8s.io's Event is the core group's internal Event.
                    Map.entry("events.k8s.io", "core"),
                    Map.entry("networking.k8s.io", "networking"),
                    Map.entry("policy", "policy"),
                    Map.entry("rbac.authorization.k8s.io", "rbac"),
                    Map.entry("scheduling.k8s.io", "scheduling"),
                    Map.entry("storage.k8s.io", "storage"));

    /** meta/v1 kinds the scheme registers in every external group version. */
    private static final Set<String> OPTIONS_KINDS =
            Set.of(
                    "WatchEvent",
                    "ListOptions",
                    "GetOptions",
                    "DeleteOptions",
                    "CreateOptions",
                    "UpdateOptions",
                    "PatchOptions");

    /** meta/v1 kinds the scheme knows in any group and version. */
    private static final Set<String> UNVERSIONED_KINDS =
            Set.of("Status", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList");

    /**
     * A create or update body (of {@code url}'s kind, or of a subresource's): absent {@code
     * apiVersion} and {@code kind} are taken from the URL, as kube-apiserver's decoder defaults
     * them; a type that does not decode into the URL's kind, or decodes from another version of it,
     * is refused with 400 and kube-apiserver's words.
     *
     * @return the refusal, or empty when the body now carries the URL's type meta
     */
    public static Optional<ApiStatus> checkBody(GroupVersionKind url, ObjectNode body) {
        GroupVersionKind actual = actual(url, text(body, "apiVersion"), text(body, "kind"));
        String problem = decodeProblem(url, actual);
        if (problem != null) {
            return Optional.of(
                    ApiStatus.badRequest(
                            actual.kind()
                                    + " in version "
                                    + FieldError.quote(actual.version())
                                    + " cannot be handled as a "
                                    + url.kind()
                                    + ": "
                                    + problem));
        }
        if (!actual.apiVersion().equals(url.apiVersion())) {
            return Optional.of(
                    ApiStatus.badRequest(
                            "the API version in the data ("
                                    + actual.apiVersion()
                                    + ") does not match the expected API version ("
                                    + url.apiVersion()
                                    + ")"));
        }
        set(url, body);
        return Optional.empty();
    }

    /**
     * The result of a JSON patch or a JSON merge patch, which kube-apiserver decodes into the URL's
     * kind: a type that does not decode is refused with its 422 ({@code patch: Invalid value:
     * "<patched object>": <decoding error>}); another registered version of the kind decodes, and
     * like an absent type meta ends as the URL's.
     *
     * @return the refusal, or empty when the object now carries the URL's type meta
     */
    public static Optional<ApiStatus> checkPatched(GroupVersionKind url, ObjectNode patched) {
        JsonNode apiVersion = patched.get("apiVersion");
        JsonNode kind = patched.get("kind");
        String problem = notAString("apiVersion", apiVersion);
        if (problem == null) {
            problem = notAString("kind", kind);
        }
        if (problem == null) {
            problem =
                    decodeProblem(
                            url, actual(url, text(patched, "apiVersion"), text(patched, "kind")));
        }
        if (problem != null) {
            // kube-apiserver's NewInvalid without a kind or name: ` "" is invalid: <error>`.
            FieldError error = FieldError.invalid("patch", Json.string(patched), problem);
            return Optional.of(
                    ApiStatus.invalidRequest(" \"\" is invalid: " + error, List.of(error)));
        }
        set(url, patched);
        return Optional.empty();
    }

    /**
     * A strategic merge patch's result: kube-apiserver converts it from a map into the URL's Go
     * type, whose type meta a patch does not decide, so whatever the patch set is replaced.
     */
    public static void resetPatched(GroupVersionKind url, ObjectNode patched) {
        set(url, patched);
    }

    /**
     * A server-side apply configuration: kube-apiserver's field manager refuses one of another
     * group, version or kind with 400 {@code invalid object type: <group>/<version>, Kind=<kind>}.
     */
    public static void checkApplied(GroupVersionKind url, ObjectNode config) {
        String apiVersion =
                config.path("apiVersion").isTextual() ? config.get("apiVersion").asText() : "";
        String kind = config.path("kind").isTextual() ? config.get("kind").asText() : "";
        GroupVersionKind given = parse(apiVersion, kind);
        if (!given.equals(url)) {
            throw ApiStatus.badRequest(
                            "invalid object type: "
                                    + given.group()
                                    + "/"
                                    + given.version()
                                    + ", Kind="
                                    + given.kind())
                    .exception();
        }
    }

    /**
     * A stored object's JSON with {@code url}'s type meta: {@code json} itself when it has it
     * (checked without building a tree), otherwise a corrected copy. Objects stored before every
     * write path checked type meta may carry another one; they are served as what their collection
     * holds.
     */
    public static byte[] repairStored(GroupVersionKind url, byte[] json) {
        if (storedMatches(url, json)) {
            return json;
        }
        ObjectNode obj = Json.parseTrusted(json);
        set(url, obj);
        return Json.bytes(obj);
    }

    /**
     * Whether a stored object's top-level {@code apiVersion} and {@code kind} are {@code url}'s.
     */
    public static boolean storedMatches(GroupVersionKind url, byte[] json) {
        String apiVersion = null;
        String kind = null;
        try (JsonParser p = Json.MAPPER.getFactory().createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME && (apiVersion == null || kind == null)) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if (field.equals("apiVersion") || field.equals("kind")) {
                    String text = value == JsonToken.VALUE_STRING ? p.getText() : "";
                    if (field.equals("apiVersion")) {
                        apiVersion = text;
                    } else {
                        kind = text;
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return url.apiVersion().equals(apiVersion) && url.kind().equals(kind);
    }

    private static void set(GroupVersionKind url, ObjectNode obj) {
        obj.put("apiVersion", url.apiVersion());
        obj.put("kind", url.kind());
    }

    /**
     * A body's type with absent parts taken from the URL, as kube-apiserver's decoder defaults
     * them.
     */
    private static GroupVersionKind actual(GroupVersionKind url, String apiVersion, String kind) {
        GroupVersionKind given = parse(apiVersion, kind);
        String k = given.kind().isEmpty() ? url.kind() : given.kind();
        if (given.version().isEmpty() && given.group().isEmpty()) {
            return new GroupVersionKind(url.group(), url.version(), k);
        }
        return new GroupVersionKind(given.group(), given.version(), k);
    }

    /**
     * As Go's {@code schema.FromAPIVersionAndKind}: {@code group/version} or {@code version}; a
     * string with more slashes is no group version at all.
     */
    private static GroupVersionKind parse(String apiVersion, String kind) {
        String[] parts = apiVersion.split("/", -1);
        if (apiVersion.isEmpty() || parts.length > 2) {
            return new GroupVersionKind("", "", kind);
        }
        return parts.length == 1
                ? new GroupVersionKind("", parts[0], kind)
                : new GroupVersionKind(parts[0], parts[1], kind);
    }

    /**
     * Why kube-apiserver's scheme cannot decode {@code actual} into {@code url}'s kind, in its
     * words; null when it can (the same kind in a version the scheme registers).
     */
    static String decodeProblem(GroupVersionKind url, GroupVersionKind actual) {
        boolean registeredVersion =
                SCHEME_VERSIONS.getOrDefault(actual.group(), List.of()).contains(actual.version());
        if (actual.equals(url)
                || (registeredVersion
                        && actual.kind().equals(url.kind())
                        && internalPackage(actual.group()).equals(internalPackage(url.group())))) {
            return null;
        }
        String goType = null;
        if (UNVERSIONED_KINDS.contains(actual.kind())
                || (registeredVersion && OPTIONS_KINDS.contains(actual.kind()))) {
            goType = "v1." + actual.kind();
        } else if (registeredVersion && Kinds.of(actual.group()).contains(actual.kind())) {
            goType = actual.version() + "." + actual.kind();
        }
        if (goType == null) {
            return "no kind "
                    + FieldError.quote(actual.kind())
                    + " is registered for version "
                    + FieldError.quote(actual.apiVersion())
                    + " in scheme "
                    + FieldError.quote(SCHEME);
        }
        return "converting ("
                + goType
                + ") to ("
                + INTERNAL_PACKAGES.getOrDefault(url.group(), "v1")
                + "."
                + url.kind()
                + "): unknown conversion";
    }

    /**
     * The Go package of a group's internal types: a kind decodes from any registered version of a
     * kind with the same internal type (core/v1 and events.k8s.io/v1 Events are both {@code
     * core.Event}).
     */
    private static String internalPackage(String group) {
        return INTERNAL_PACKAGES.getOrDefault(group, group);
    }

    /** Go's error for a type meta field that is not a string; null when it is one, or absent. */
    private static String notAString(String field, JsonNode value) {
        if (value == null || value.isNull() || value.isTextual()) {
            return null;
        }
        String kind =
                value.isObject()
                        ? "object"
                        : value.isArray() ? "array" : value.isBoolean() ? "bool" : "number";
        return "couldn't get version/kind; json parse error: json: cannot unmarshal "
                + kind
                + " into Go struct field ."
                + field
                + " of type string";
    }

    private static String text(ObjectNode obj, String field) {
        JsonNode v = obj.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }

    /** The kinds (and list kinds) the scheme knows per group: the built-in registry's. */
    private static final class Kinds {
        private static final Map<String, Set<String>> BY_GROUP = new HashMap<>();

        static {
            for (KindDefinition d : BuiltinKinds.all()) {
                ResourceType t = d.type();
                Set<String> kinds = BY_GROUP.computeIfAbsent(t.group(), g -> new HashSet<>());
                kinds.add(t.kind());
                kinds.add(t.listKind());
            }
            BY_GROUP.computeIfAbsent("autoscaling", g -> new HashSet<>()).add("Scale");
        }

        static Set<String> of(String group) {
            return BY_GROUP.getOrDefault(group, Set.of());
        }
    }
}
