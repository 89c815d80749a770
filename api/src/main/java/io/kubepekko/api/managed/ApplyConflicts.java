package io.kubepekko.api.managed;

import com.fasterxml.jackson.databind.node.TextNode;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.Reason;
import io.kubepekko.api.status.StatusCause;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The 409 an apply gets when it would change fields other managers own, worded as kube-apiserver
 * words it: one {@code FieldManagerConflict} cause per field, managers in the order of their
 * identifiers, and no {@code details.name} or {@code kind}.
 */
public final class ApplyConflicts {
    private ApplyConflicts() {}

    /** One field another manager owns and the apply would change. */
    public record Conflict(ManagedFields.Entry owner, List<String> path) {}

    /** The conflicts in the order Kubernetes reports them: by manager identifier, then by path. */
    public static List<Conflict> sorted(Map<ManagedFields.Entry, FieldSet> byOwner) {
        List<ManagedFields.Entry> owners = new ArrayList<>(byOwner.keySet());
        owners.sort(Comparator.comparing(ApplyConflicts::identifier));
        List<Conflict> out = new ArrayList<>();
        for (ManagedFields.Entry owner : owners) {
            for (List<String> path : byOwner.get(owner).memberPaths()) {
                out.add(new Conflict(owner, path));
            }
        }
        return out;
    }

    /** The 409 Conflict Status for {@code conflicts} (not empty, in {@link #sorted} order). */
    public static ApiStatus status(List<Conflict> conflicts) {
        List<StatusCause> causes = new ArrayList<>();
        for (Conflict c : conflicts) {
            causes.add(
                    new StatusCause(
                            "FieldManagerConflict",
                            "conflict with " + describe(c.owner()),
                            FieldPaths.render(c.path())));
        }
        String message;
        if (conflicts.size() == 1) {
            Conflict c = conflicts.get(0);
            message =
                    "Apply failed with 1 conflict: conflict with "
                            + describe(c.owner())
                            + ": "
                            + FieldPaths.render(c.path());
        } else {
            Map<String, List<String>> byManager = new LinkedHashMap<>();
            for (Conflict c : conflicts) {
                byManager
                        .computeIfAbsent(describe(c.owner()), k -> new ArrayList<>())
                        .add(FieldPaths.render(c.path()));
            }
            List<String> lines = new ArrayList<>();
            byManager.forEach(
                    (manager, paths) -> {
                        lines.add("conflicts with " + manager + ":");
                        paths.forEach(p -> lines.add("- " + p));
                    });
            message =
                    "Apply failed with "
                            + conflicts.size()
                            + " conflicts: "
                            + String.join("\n", lines);
        }
        return new ApiStatus(
                409,
                Reason.CONFLICT,
                message,
                new ApiStatus.Details(null, null, null, null, causes, null));
    }

    /**
     * A manager as conflicts name it: {@code "name"}, {@code with subresource "s"} when it has one,
     * and for Update entries {@code using <apiVersion>} and {@code at <time>}.
     */
    static String describe(ManagedFields.Entry e) {
        StringBuilder out = new StringBuilder(quote(e.manager()));
        if (e.subresource() != null && !e.subresource().isEmpty()) {
            out.append(" with subresource ").append(quote(e.subresource()));
        }
        if ("Update".equals(e.operation())) {
            out.append(" using ").append(e.apiVersion());
            if (e.time() != null) {
                out.append(" at ").append(e.time());
            }
        }
        return out.toString();
    }

    /**
     * The identifier Kubernetes keys managers by (its sort order): the entry's JSON without time
     * and fields, and without the apiVersion for appliers.
     */
    static String identifier(ManagedFields.Entry e) {
        StringBuilder out =
                new StringBuilder("{\"manager\":")
                        .append(quote(e.manager()))
                        .append(",\"operation\":")
                        .append(quote(e.operation()));
        if (!"Apply".equals(e.operation())) {
            out.append(",\"apiVersion\":").append(quote(e.apiVersion()));
        }
        if (e.subresource() != null && !e.subresource().isEmpty()) {
            out.append(",\"subresource\":").append(quote(e.subresource()));
        }
        return out.append('}').toString();
    }

    private static String quote(String s) {
        return Json.string(TextNode.valueOf(s));
    }
}
