package io.kubepekko.api.namespace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The namespace controller's decisions, after kube's {@code namespacedResourcesDeleter}: when a
 * namespace's content must be deleted, the conditions a deletion pass reports, how long to wait
 * before the next pass, and the namespace's finalized form.
 */
public final class NamespaceDeletion {

    /** The finalizer token in {@code spec.finalizers} that this controller removes. */
    public static final String KUBERNETES_FINALIZER = "kubernetes";

    /** kube's default wait for finalizers found on remaining content. */
    public static final long FINALIZER_ESTIMATE_SECONDS = 15;

    /** The condition types the controller maintains, in the order it adds them. */
    public static final List<String> CONDITION_TYPES =
            List.of(
                    "NamespaceDeletionDiscoveryFailure",
                    "NamespaceDeletionGroupVersionParsingFailure",
                    "NamespaceDeletionContentFailure",
                    "NamespaceContentRemaining",
                    "NamespaceFinalizersRemaining");

    private static final Map<String, NamespaceCondition> OK =
            Map.of(
                    "NamespaceDeletionDiscoveryFailure",
                            ok(
                                    "NamespaceDeletionDiscoveryFailure",
                                    "ResourcesDiscovered",
                                    "All resources successfully discovered"),
                    "NamespaceDeletionGroupVersionParsingFailure",
                            ok(
                                    "NamespaceDeletionGroupVersionParsingFailure",
                                    "ParsedGroupVersions",
                                    "All legacy kube types successfully parsed"),
                    "NamespaceDeletionContentFailure",
                            ok(
                                    "NamespaceDeletionContentFailure",
                                    "ContentDeleted",
                                    "All content successfully deleted, may be waiting on finalization"),
                    "NamespaceContentRemaining",
                            ok(
                                    "NamespaceContentRemaining",
                                    "ContentRemoved",
                                    "All content successfully removed"),
                    "NamespaceFinalizersRemaining",
                            ok(
                                    "NamespaceFinalizersRemaining",
                                    "ContentHasNoFinalizers",
                                    "All content-preserving finalizers finished"));

    private NamespaceDeletion() {}

    private static NamespaceCondition ok(String type, String reason, String message) {
        return new NamespaceCondition(type, "False", reason, message);
    }

    /** Whether the namespace is being deleted and still waits for this controller. */
    public static boolean needsContentDeletion(ObjectNode ns) {
        return ns.path("metadata").hasNonNull("deletionTimestamp")
                && specFinalizers(ns).contains(KUBERNETES_FINALIZER);
    }

    private static List<String> specFinalizers(ObjectNode ns) {
        List<String> out = new ArrayList<>();
        ns.path("spec").path("finalizers").forEach(f -> out.add(f.asText()));
        return out;
    }

    /** The namespace with phase {@code Terminating}, or {@code null} when it already has it. */
    public static ObjectNode terminating(ObjectNode ns) {
        if ("Terminating".equals(ns.path("status").path("phase").asText())) {
            return null;
        }
        ObjectNode copy = ns.deepCopy();
        ObjectNode status =
                copy.has("status") && copy.get("status").isObject()
                        ? (ObjectNode) copy.get("status")
                        : copy.putObject("status");
        status.put("phase", "Terminating");
        return copy;
    }

    /**
     * The body of the {@code finalize} write: {@code spec.finalizers} without this controller's
     * token, sorted.
     */
    public static ObjectNode finalized(ObjectNode ns) {
        ObjectNode copy = ns.deepCopy();
        TreeSet<String> rest = new TreeSet<>(specFinalizers(ns));
        rest.remove(KUBERNETES_FINALIZER);
        ObjectNode spec =
                copy.has("spec") && copy.get("spec").isObject()
                        ? (ObjectNode) copy.get("spec")
                        : copy.putObject("spec");
        ArrayNode finalizers = spec.putArray("finalizers");
        rest.forEach(finalizers::add);
        return copy;
    }

    /** The outcome of one pass over every namespaced type. */
    public record Pass(
            List<NamespaceCondition> conditions, List<String> errors, long estimateSeconds) {
        /** Nothing is left and nothing failed: the namespace can be finalized. */
        public boolean contentGone() {
            return errors.isEmpty() && estimateSeconds == 0;
        }
    }

    /**
     * Sums up a pass: kube's conditions (the failing variant where something failed or remains).
     */
    public static Pass summarize(List<ContentRemaining> types) {
        Map<String, Integer> byResource = new TreeMap<>();
        Map<String, Integer> byFinalizer = new TreeMap<>();
        List<String> errors = new ArrayList<>();
        long estimate = 0;
        for (ContentRemaining t : types) {
            if (t.error() != null) {
                errors.add(t.error());
            }
            if (t.remaining() > 0) {
                byResource.put(t.resource() + "." + t.group(), t.remaining());
                t.finalizers().forEach((f, n) -> byFinalizer.merge(f, n, Integer::sum));
                if (!t.finalizers().isEmpty()) {
                    estimate = Math.max(estimate, FINALIZER_ESTIMATE_SECONDS);
                }
            }
        }
        List<NamespaceCondition> conditions = new ArrayList<>();
        conditions.add(OK.get("NamespaceDeletionDiscoveryFailure"));
        conditions.add(OK.get("NamespaceDeletionGroupVersionParsingFailure"));
        if (errors.isEmpty()) {
            conditions.add(OK.get("NamespaceDeletionContentFailure"));
        } else {
            List<String> sorted = new ArrayList<>(errors);
            sorted.sort(null);
            conditions.add(
                    new NamespaceCondition(
                            "NamespaceDeletionContentFailure",
                            "True",
                            "ContentDeletionFailed",
                            "Failed to delete all resource types, "
                                    + errors.size()
                                    + " remaining: "
                                    + String.join(", ", sorted)));
        }
        if (byResource.isEmpty()) {
            conditions.add(OK.get("NamespaceContentRemaining"));
        } else {
            List<String> parts = new ArrayList<>();
            byResource.forEach((r, n) -> parts.add(r + " has " + n + " resource instances"));
            parts.sort(null);
            conditions.add(
                    new NamespaceCondition(
                            "NamespaceContentRemaining",
                            "True",
                            "SomeResourcesRemain",
                            "Some resources are remaining: " + String.join(", ", parts)));
        }
        if (byFinalizer.isEmpty()) {
            conditions.add(OK.get("NamespaceFinalizersRemaining"));
        } else {
            List<String> parts = new ArrayList<>();
            byFinalizer.forEach((f, n) -> parts.add(f + " in " + n + " resource instances"));
            parts.sort(null);
            conditions.add(
                    new NamespaceCondition(
                            "NamespaceFinalizersRemaining",
                            "True",
                            "SomeFinalizersRemain",
                            "Some content in the namespace has finalizers remaining: "
                                    + String.join(", ", parts)));
        }
        return new Pass(conditions, errors, estimate);
    }

    /**
     * The namespace's conditions with {@code desired} merged in as kube does: a condition that
     * changed takes the new status, reason and message, and a new {@code lastTransitionTime} only
     * when its status changed; a new one is appended; others are kept.
     *
     * @return the new {@code status.conditions}, or {@code null} when nothing changed
     */
    public static ArrayNode mergeConditions(
            ObjectNode ns, List<NamespaceCondition> desired, String now) {
        ArrayNode conditions =
                ns.path("status").path("conditions").isArray()
                        ? ((ArrayNode) ns.path("status").path("conditions")).deepCopy()
                        : Json.MAPPER.createArrayNode();
        boolean changed = false;
        for (NamespaceCondition want : desired) {
            ObjectNode have = null;
            for (JsonNode c : conditions) {
                if (want.type().equals(c.path("type").asText())) {
                    have = (ObjectNode) c;
                    break;
                }
            }
            if (have == null) {
                conditions
                        .addObject()
                        .put("type", want.type())
                        .put("status", want.status())
                        .put("lastTransitionTime", now)
                        .put("reason", want.reason())
                        .put("message", want.message());
                changed = true;
            } else if (!want.status().equals(have.path("status").asText())
                    || !want.reason().equals(have.path("reason").asText())
                    || !want.message().equals(have.path("message").asText())) {
                if (!want.status().equals(have.path("status").asText())) {
                    have.put("lastTransitionTime", now);
                }
                have.put("status", want.status())
                        .put("reason", want.reason())
                        .put("message", want.message());
                changed = true;
            }
        }
        return changed ? conditions : null;
    }
}
