package io.kubepekko.api.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.managed.ManagedFields;
import io.kubepekko.api.managed.ServerSideApply;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.meta.ObjectMeta;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * The apply-specific part of a server-side apply PATCH ({@code application/apply-patch+yaml}):
 * decoding the configuration (YAML or JSON), the checks kube-apiserver makes on it, and the
 * structured merge. What comes out goes through the ordinary create or update pipeline.
 */
final class ApplyPatches {
    private ApplyPatches() {}

    private static final ServerSideApply APPLY = new ServerSideApply(MergeMetadata.builtin());

    /** The applied configuration of {@code p}, checked against the URL's kind and name. */
    static ObjectNode config(ResourceType type, WriteOp.Patch p) {
        JsonNode parsed;
        try {
            parsed = read(p.patch());
        } catch (IOException e) {
            throw ApiStatus.badRequest("error decoding patch: " + firstLine(e.getMessage()))
                    .exception();
        }
        if (parsed == null || parsed.isMissingNode() || parsed.isNull()) {
            parsed = Json.MAPPER.createObjectNode();
        }
        if (!(parsed instanceof ObjectNode config)) {
            throw ApiStatus.badRequest(
                            "error decoding patch: the applied configuration is not an object")
                    .exception();
        }
        TypeMeta.checkApplied(type.gvk(), config);
        JsonNode meta = config.get("metadata");
        if (meta != null && !meta.isNull() && !meta.isObject()) {
            throw ApiStatus.badRequest("error decoding patch: metadata must be an object")
                    .exception();
        }
        if (meta != null && meta.has("managedFields") && !meta.get("managedFields").isNull()) {
            throw ApiStatus.badRequest("metadata.managedFields must be nil").exception();
        }
        String name = ObjectMeta.name(config);
        if (name != null && !name.isEmpty() && !name.equals(p.name())) {
            throw ApiStatus.badRequest(
                            "the name of the object ("
                                    + name
                                    + ") does not match the name on the URL ("
                                    + p.name()
                                    + ")")
                    .exception();
        }
        return config;
    }

    /**
     * What merging an applied configuration comes to: the {@link Applied} object, or the conflicts'
     * refusal.
     */
    sealed interface Merge permits Applied, Conflicted {}

    /**
     * An apply's result: the object, and whether it may hold empty maps or lists that Kubernetes'
     * encoding leaves out (only the configuration's own, or a removal, can bring them: the live
     * object is stored encoded).
     */
    record Applied(ObjectNode object, boolean needsEncoding) implements Merge {}

    /** The apply conflicts with other managers' fields: answered 409 with one cause per field. */
    record Conflicted(ServerSideApply.Conflicts conflicts) implements Merge {
        WriteResult.Refused refusal() {
            return new WriteResult.Refused(conflicts.status());
        }
    }

    /**
     * {@code config} applied to {@code existing} (null: the object is created), with the new
     * managedFields set on the result (an empty list when no manager is left, which the pipeline
     * takes as "none").
     */
    static Merge apply(
            Versions versions,
            ObjectNode existing,
            ObjectNode config,
            WriteOp.Patch p,
            Instant now) {
        ResourceType type = versions.served();
        ObjectNode live;
        List<ManagedFields.Entry> entries;
        if (existing == null) {
            live = Json.MAPPER.createObjectNode();
            entries = List.of();
        } else {
            // Merged as the configuration's version has the object.
            live = versions.fromStorage(existing).deepCopy();
            entries = ManagedFields.of(existing);
            ObjectMeta.of(live).remove("managedFields");
        }
        String message = ManagedFieldsRecorder.message(type);
        String manager = p.options().fieldManager();
        ServerSideApply.Outcome outcome =
                APPLY.apply(
                        live,
                        entries,
                        config,
                        message,
                        new ServerSideApply.Request(
                                manager,
                                p.subresource(),
                                type.apiVersion(),
                                Timestamps.format(now),
                                p.force()),
                        versions.converter());
        if (outcome instanceof ServerSideApply.Conflicts conflicts) {
            return new Conflicted(conflicts);
        }
        ServerSideApply.Result result = (ServerSideApply.Result) outcome;
        ObjectNode out = result.object();
        ObjectNode meta = ObjectMeta.of(out);
        if (ObjectMeta.name(out) == null || ObjectMeta.name(out).isEmpty()) {
            meta.put("name", p.name());
        }
        meta.set("managedFields", ManagedFields.render(result.entries()));
        return new Applied(out, result.removed() || holdsEmptyOrNull(config));
    }

    private static boolean holdsEmptyOrNull(JsonNode node) {
        if (node.isNull() || (node.isContainerNode() && node.isEmpty())) {
            return true;
        }
        if (node.isContainerNode()) {
            for (JsonNode child : node) {
                if (holdsEmptyOrNull(child)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * JSON is YAML, but the JSON parser reads it several times faster, and clients mostly send
     * JSON; a body the JSON parser refuses (YAML flow style such as {@code {a: b}}) is read as
     * YAML.
     */
    private static JsonNode read(byte[] body) throws IOException {
        if (looksLikeJson(body)) {
            try {
                return Json.MAPPER.readTree(body);
            } catch (IOException notJson) {
                // fall through to YAML
            }
        }
        return Json.YAML.readTree(body);
    }

    private static boolean looksLikeJson(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return b == '{';
            }
        }
        return false;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "invalid YAML";
        }
        int nl = message.indexOf('\n');
        return nl < 0 ? message : message.substring(0, nl);
    }
}
