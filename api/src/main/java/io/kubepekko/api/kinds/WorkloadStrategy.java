package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * The apps/v1 workloads (Deployment, ReplicaSet, StatefulSet, DaemonSet): a required, non-empty,
 * immutable selector that matches a valid pod template whose restartPolicy is Always, plus each
 * kind's spec defaults and own fields.
 */
public final class WorkloadStrategy implements Strategy {

    /** Which workload, with the few messages that differ between them. */
    public enum Kind {
        DEPLOYMENT("deployment", "activeDeadlineSeconds in ReplicaSet is not Supported"),
        REPLICA_SET("deployment", "activeDeadlineSeconds in ReplicaSet is not Supported"),
        STATEFUL_SET("statefulset", "must not be specified"),
        DAEMON_SET("daemonset", "activeDeadlineSeconds in DaemonSet is not Supported");

        final String emptySelectorName;
        final String activeDeadlineMessage;

        Kind(String emptySelectorName, String activeDeadlineMessage) {
            this.emptySelectorName = emptySelectorName;
            this.activeDeadlineMessage = activeDeadlineMessage;
        }
    }

    static final String SELECTOR_MISMATCH = "`selector` does not match template `labels`";
    static final String STATEFULSET_UPDATE_FORBIDDEN =
            "updates to statefulset spec for fields other than 'replicas', "
                    + "'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' "
                    + "and 'minReadySeconds' are forbidden";
    private static final FieldPath SPEC = FieldPath.of("spec");

    private final Kind kind;

    public WorkloadStrategy(Kind kind) {
        this.kind = kind;
    }

    @Override
    public void applyDefaults(ObjectNode obj) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        switch (kind) {
            case DEPLOYMENT -> WorkloadDefaults.defaultDeploymentSpec(spec);
            case REPLICA_SET -> WorkloadDefaults.defaultReplicaSetSpec(spec);
            case STATEFUL_SET -> WorkloadDefaults.defaultStatefulSetSpec(spec);
            case DAEMON_SET -> WorkloadDefaults.defaultDaemonSetSpec(spec);
        }
        PodDefaults.defaultPodTemplate(Nodes.obj(spec, "template"));
    }

    /**
     * Deployments also count annotation changes: they are copied onto the ReplicaSets the
     * controller makes, so a rollout is needed (Kubernetes' deployment strategy does the same).
     */
    @Override
    public boolean generationChanged(ObjectNode old, ObjectNode updated) {
        if (kind == Kind.DEPLOYMENT
                && !old.path("metadata")
                        .path("annotations")
                        .equals(updated.path("metadata").path("annotations"))) {
            return true;
        }
        return Strategy.specDiffers(old, updated);
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        if (kind != Kind.DAEMON_SET) {
            errs.addAll(nonNegative(spec, "replicas", SPEC));
        }
        errs.addAll(selectorAndTemplate(spec, SPEC, kind.emptySelectorName));
        JsonNode podSpec = Nodes.at(spec, "template", "spec");
        String restart = Nodes.text(podSpec, "restartPolicy");
        if (!restart.equals("Always")) {
            errs.add(
                    FieldError.notSupported(
                            SPEC.child("template", "spec", "restartPolicy").toString(),
                            restart,
                            List.of("Always")));
        }
        if (Nodes.has(podSpec, "activeDeadlineSeconds")) {
            FieldPath p = SPEC.child("template", "spec", "activeDeadlineSeconds");
            errs.add(
                    kind == Kind.DEPLOYMENT || kind == Kind.REPLICA_SET
                            ? FieldError.forbidden(p.toString(), kind.activeDeadlineMessage)
                            : FieldError.invalid(
                                    p.toString(),
                                    podSpec.get("activeDeadlineSeconds").asLong(),
                                    kind.activeDeadlineMessage));
        }
        errs.addAll(
                switch (kind) {
                    case DEPLOYMENT -> WorkloadSpecs.deployment(spec, SPEC);
                    case STATEFUL_SET -> WorkloadSpecs.statefulSet(spec, SPEC);
                    case DAEMON_SET -> WorkloadSpecs.daemonSet(spec, SPEC);
                    case REPLICA_SET -> List.<FieldError>of();
                });
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        JsonNode selector = obj.path("spec").get("selector");
        if (!Nodes.same(selector, old.path("spec").get("selector"))) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("selector").toString(),
                            BadValue.of(selector),
                            ObjectMetaValidation.FIELD_IMMUTABLE));
        }
        if (kind == Kind.STATEFUL_SET
                && !statefulSetSpecOnlyMutableChanged(obj.path("spec"), old.path("spec"))) {
            errs.add(FieldError.forbidden(SPEC.toString(), STATEFULSET_UPDATE_FORBIDDEN));
        }
        return errs;
    }

    /**
     * The empty status each kind's {@code PrepareForCreate} sets, as it serializes (non-omitempty
     * zeros).
     */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        ObjectNode status = Nodes.F.objectNode();
        switch (kind) {
            case DEPLOYMENT -> {}
            case REPLICA_SET -> status.put("replicas", 0);
            case STATEFUL_SET -> status.put("replicas", 0).put("availableReplicas", 0);
            case DAEMON_SET ->
                    status.put("currentNumberScheduled", 0)
                            .put("numberMisscheduled", 0)
                            .put("desiredNumberScheduled", 0)
                            .put("numberReady", 0);
        }
        return status;
    }

    /**
     * A required, non-empty selector, then (when it parsed) a template whose labels it matches and
     * which is a valid pod template. Shared with Jobs that set {@code manualSelector}.
     */
    static List<FieldError> selectorAndTemplate(JsonNode spec, FieldPath path, String kindName) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode selector = spec.get("selector");
        boolean selectorValid = true;
        if (selector == null || selector.isNull()) {
            errs.add(FieldError.required(path.child("selector").toString(), ""));
        } else {
            List<FieldError> selErrs = LabelValidation.selector(selector, path.child("selector"));
            selectorValid = selErrs.isEmpty();
            errs.addAll(selErrs);
            if (LabelValidation.isEmpty(selector)) {
                errs.add(
                        FieldError.invalid(
                                path.child("selector").toString(),
                                BadValue.of(selector),
                                "empty selector is invalid for " + kindName));
            }
        }
        if (selectorValid) {
            JsonNode template = spec.get("template");
            if (selector != null
                    && !selector.isNull()
                    && !LabelValidation.isEmpty(selector)
                    && template != null) {
                JsonNode labels = Nodes.at(template, "metadata", "labels");
                if (!LabelValidation.matches(selector, Nodes.stringMap(labels))) {
                    errs.add(
                            FieldError.invalid(
                                    path.child("template", "metadata", "labels").toString(),
                                    BadValue.ofSortedObject(labels),
                                    SELECTOR_MISMATCH));
                }
            }
            errs.addAll(PodSpecValidation.validatePodTemplate(template, path.child("template")));
        }
        return errs;
    }

    static List<FieldError> nonNegative(JsonNode parent, String field, FieldPath path) {
        if (Nodes.has(parent, field) && parent.get(field).asLong() < 0) {
            return List.of(
                    FieldError.invalid(
                            path.child(field).toString(),
                            parent.get(field).asLong(),
                            ObjectMetaValidation.IS_NEGATIVE));
        }
        return List.of();
    }

    private static boolean statefulSetSpecOnlyMutableChanged(JsonNode spec, JsonNode oldSpec) {
        ObjectNode a = spec.isObject() ? ((ObjectNode) spec).deepCopy() : Nodes.F.objectNode();
        ObjectNode b =
                oldSpec.isObject() ? ((ObjectNode) oldSpec).deepCopy() : Nodes.F.objectNode();
        for (String f :
                new String[] {
                    "replicas",
                    "ordinals",
                    "template",
                    "updateStrategy",
                    "revisionHistoryLimit",
                    "persistentVolumeClaimRetentionPolicy",
                    "minReadySeconds"
                }) {
            a.remove(f);
            b.remove(f);
        }
        return a.equals(b);
    }
}
