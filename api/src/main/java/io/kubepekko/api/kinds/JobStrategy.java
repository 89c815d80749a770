package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * batch/v1 Jobs: spec defaults, the generated selector (labels tying pods to this Job's uid), a pod
 * template whose restartPolicy is OnFailure or Never; selector, template and completion mode are
 * immutable.
 */
public final class JobStrategy implements Strategy {

    private static final DeletionRules DELETION = new OrphaningDeletion();

    /** batch/v1 Jobs orphan their pods by default (see {@link OrphaningDeletion}). */
    @Override
    public DeletionRules deletion() {
        return DELETION;
    }

    static final String CONTROLLER_UID_LABEL = "batch.kubernetes.io/controller-uid";
    static final String JOB_NAME_LABEL = "batch.kubernetes.io/job-name";
    static final String LEGACY_CONTROLLER_UID_LABEL = "controller-uid";
    static final String LEGACY_JOB_NAME_LABEL = "job-name";
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public void applyDefaults(ObjectNode obj) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        defaultJobSpec(spec);
        generateSelector(obj);
    }

    /**
     * {@code SetDefaults_Job}: parallelism/completions 1, backoffLimit 6, NonIndexed, not
     * suspended.
     */
    static void defaultJobSpec(ObjectNode spec) {
        if (!Nodes.has(spec, "completions") && !Nodes.has(spec, "parallelism")) {
            spec.put("completions", 1);
        }
        Nodes.defaultInt(spec, "parallelism", 1);
        if (!Nodes.has(spec, "backoffLimitPerIndex")) {
            Nodes.defaultInt(spec, "backoffLimit", 6);
        }
        Nodes.defaultText(spec, "completionMode", "NonIndexed");
        Nodes.defaultBool(spec, "suspend", false);
        Nodes.defaultText(
                spec,
                "podReplacementPolicy",
                Nodes.has(spec, "podFailurePolicy") ? "Failed" : "TerminatingOrFailed");
        PodDefaults.defaultPodTemplate(Nodes.obj(spec, "template"));
    }

    /**
     * Unless {@code manualSelector} is true, label the template with the Job's uid and name and
     * select on the uid, as Kubernetes does on create. Needs {@code metadata.uid}, so the write
     * pipeline must have filled it; without a uid nothing is generated and validation reports the
     * missing selector.
     */
    static void generateSelector(ObjectNode obj) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        String uid = Nodes.text(obj.path("metadata"), "uid");
        if (spec.path("manualSelector").asBoolean(false)
                || uid.isEmpty()
                || Nodes.has(spec, "selector")
                        && Nodes.at(spec, "selector", "matchLabels").has(CONTROLLER_UID_LABEL)) {
            return;
        }
        String name = Nodes.text(obj.path("metadata"), "name");
        ObjectNode labels = Nodes.obj(Nodes.obj(Nodes.obj(spec, "template"), "metadata"), "labels");
        Nodes.defaultText(labels, LEGACY_CONTROLLER_UID_LABEL, uid);
        Nodes.defaultText(labels, CONTROLLER_UID_LABEL, uid);
        if (!name.isEmpty()) {
            Nodes.defaultText(labels, LEGACY_JOB_NAME_LABEL, name);
            Nodes.defaultText(labels, JOB_NAME_LABEL, name);
        }
        Nodes.defaultText(
                Nodes.obj(Nodes.obj(spec, "selector"), "matchLabels"), CONTROLLER_UID_LABEL, uid);
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        return validateJobSpec(obj.path("spec"), SPEC, true);
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        JsonNode spec = obj.path("spec");
        JsonNode oldSpec = old.path("spec");
        for (String f : new String[] {"selector", "template", "completionMode"}) {
            if (!Nodes.same(spec.get(f), oldSpec.get(f))) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child(f).toString(),
                                spec.path(f).isTextual()
                                        ? spec.get(f).asText()
                                        : BadValue.of(spec.get(f)),
                                ObjectMetaValidation.FIELD_IMMUTABLE));
            }
        }
        return errs;
    }

    /** Jobs start with an empty status; the job controller fills it. */
    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode();
    }

    /**
     * A job spec; {@code requireSelector} is false inside a CronJob's jobTemplate, where the
     * selector is generated for each Job later.
     */
    static List<FieldError> validateJobSpec(
            JsonNode spec, FieldPath path, boolean requireSelector) {
        List<FieldError> errs = new ArrayList<>();
        for (String f :
                new String[] {
                    "parallelism",
                    "completions",
                    "activeDeadlineSeconds",
                    "backoffLimit",
                    "ttlSecondsAfterFinished"
                }) {
            errs.addAll(WorkloadStrategy.nonNegative(spec, f, path));
        }
        JsonNode selector = spec.get("selector");
        if (selector == null || selector.isNull()) {
            if (requireSelector) {
                errs.add(FieldError.required(path.child("selector").toString(), ""));
            }
        } else {
            List<FieldError> selErrs = LabelValidation.selector(selector, path.child("selector"));
            errs.addAll(selErrs);
            JsonNode labels = Nodes.at(spec, "template", "metadata", "labels");
            if (selErrs.isEmpty() && !LabelValidation.matches(selector, Nodes.stringMap(labels))) {
                errs.add(
                        FieldError.invalid(
                                path.child("template", "metadata", "labels").toString(),
                                BadValue.ofSortedObject(labels),
                                WorkloadStrategy.SELECTOR_MISMATCH));
            }
        }
        String mode = Nodes.text(spec, "completionMode");
        if (!mode.isEmpty() && !mode.equals("NonIndexed") && !mode.equals("Indexed")) {
            errs.add(
                    FieldError.notSupported(
                            path.child("completionMode").toString(),
                            mode,
                            List.of("NonIndexed", "Indexed")));
        }
        if (mode.equals("Indexed") && !Nodes.has(spec, "completions")) {
            errs.add(
                    FieldError.required(
                            path.child("completions").toString(),
                            "when completion mode is Indexed"));
        }
        errs.addAll(
                PodSpecValidation.validatePodTemplate(
                        spec.get("template"), path.child("template")));
        String restart = Nodes.text(Nodes.at(spec, "template", "spec"), "restartPolicy");
        if (!restart.equals("OnFailure") && !restart.equals("Never")) {
            errs.add(
                    FieldError.notSupported(
                            path.child("template", "spec", "restartPolicy").toString(),
                            restart,
                            List.of("OnFailure", "Never")));
        }
        return errs;
    }
}
