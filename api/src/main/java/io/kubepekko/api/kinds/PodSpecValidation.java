package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Validation of pod specs and pod templates ({@code ValidatePodSpec}, {@code
 * ValidatePodTemplateSpec}), shared by pods and the workload kinds. Covers what users commonly get
 * wrong: containers, images, ports, environment, mounts, resources, volumes, enums and names; not
 * every field Kubernetes checks. This class holds the entry points and the pod-level fields
 * (policies, names, deadline, tolerations); containers are checked by {@link ContainerValidation}
 * and volumes by {@link VolumeValidation}.
 */
public final class PodSpecValidation {
    private PodSpecValidation() {}

    public static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES =
            List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
    static final List<String> TAINT_EFFECTS =
            List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

    /** {@code template}: labels and annotations of its metadata, then its spec. */
    public static List<FieldError> validatePodTemplate(JsonNode template, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (template == null || !template.isObject()) {
            errs.add(FieldError.required(path.toString(), ""));
            return errs;
        }
        JsonNode meta = template.path("metadata");
        errs.addAll(LabelValidation.labels(meta.get("labels"), path.child("labels")));
        errs.addAll(
                ObjectMetaValidation.annotations(
                        meta.get("annotations"), path.child("annotations")));
        JsonNode spec = template.path("spec");
        errs.addAll(validatePodSpec(spec, path.child("spec"), false));
        if (!Nodes.items(spec, "ephemeralContainers").isEmpty()) {
            errs.add(
                    FieldError.forbidden(
                            path.child("spec", "ephemeralContainers").toString(),
                            "ephemeral containers not allowed in pod template"));
        }
        return errs;
    }

    /**
     * A pod spec. {@code isPod} enables the checks Kubernetes applies to pods but not to templates
     * (hostPort must equal containerPort on the host network).
     */
    public static List<FieldError> validatePodSpec(JsonNode spec, FieldPath path, boolean isPod) {
        List<FieldError> errs = new ArrayList<>();
        if (!Nodes.has(spec, "terminationGracePeriodSeconds")) {
            errs.add(
                    FieldError.required(
                            path.child("terminationGracePeriodSeconds").toString(), ""));
        }
        Set<String> volumes = VolumeValidation.volumes(spec, path.child("volumes"), errs);
        errs.addAll(ContainerValidation.containers(spec, volumes, path.child("containers")));
        errs.addAll(
                ContainerValidation.initContainers(spec, volumes, path.child("initContainers")));
        if (spec.path("hostNetwork").asBoolean(false)) {
            errs.addAll(
                    ContainerValidation.hostNetworkPorts(spec, path.child("containers"), isPod));
        }
        errs.addAll(FieldChecks.enumField(spec, "restartPolicy", RESTART_POLICIES, path));
        errs.addAll(FieldChecks.enumField(spec, "dnsPolicy", DNS_POLICIES, path));
        errs.addAll(LabelValidation.labels(spec.get("nodeSelector"), path.child("nodeSelector")));
        subdomainField(spec, "serviceAccountName", path, errs);
        subdomainField(spec, "nodeName", path, errs);
        subdomainField(spec, "priorityClassName", path, errs);
        labelField(spec, "hostname", path, errs);
        labelField(spec, "subdomain", path, errs);
        if (Nodes.has(spec, "activeDeadlineSeconds")) {
            long v = spec.get("activeDeadlineSeconds").asLong();
            if (v < 1 || v > Integer.MAX_VALUE) {
                errs.add(
                        FieldError.invalid(
                                path.child("activeDeadlineSeconds").toString(),
                                v,
                                NameValidation.inclusiveRangeError(1, Integer.MAX_VALUE)));
            }
        }
        errs.addAll(tolerations(spec, path.child("tolerations")));
        return errs;
    }

    private static List<FieldError> tolerations(JsonNode spec, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> ts = Nodes.items(spec, "tolerations");
        for (int i = 0; i < ts.size(); i++) {
            JsonNode t = ts.get(i);
            FieldPath idx = path.index(i);
            String key = Nodes.text(t, "key");
            String op = Nodes.text(t, "operator");
            String effect = Nodes.text(t, "effect");
            if (!key.isEmpty()) {
                errs.addAll(LabelValidation.labelKey(key, idx.child("key")));
            }
            if (key.isEmpty() && !op.equals("Exists")) {
                errs.add(
                        FieldError.invalid(
                                idx.child("operator").toString(),
                                op,
                                "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
            }
            if (Nodes.has(t, "tolerationSeconds") && !effect.equals("NoExecute")) {
                errs.add(
                        FieldError.invalid(
                                idx.child("effect").toString(),
                                effect,
                                "effect must be 'NoExecute' when `tolerationSeconds` is set"));
            }
            switch (op) {
                case "", "Equal" ->
                        NameValidation.labelValue(Nodes.text(t, "value"))
                                .forEach(
                                        m ->
                                                errs.add(
                                                        FieldError.invalid(
                                                                idx.child("operator").toString(),
                                                                Nodes.text(t, "value"),
                                                                m)));
                case "Exists" -> {
                    if (!Nodes.text(t, "value").isEmpty()) {
                        errs.add(
                                FieldError.invalid(
                                        idx.child("operator").toString(),
                                        Nodes.text(t, "value"),
                                        "value must be empty when `operator` is 'Exists'"));
                    }
                }
                default ->
                        errs.add(
                                FieldError.notSupported(
                                        idx.child("operator").toString(),
                                        op,
                                        List.of("Equal", "Exists")));
            }
            if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                errs.add(
                        FieldError.notSupported(
                                idx.child("effect").toString(), effect, TAINT_EFFECTS));
            }
        }
        return errs;
    }

    private static void subdomainField(
            JsonNode spec, String field, FieldPath path, List<FieldError> errs) {
        String v = Nodes.text(spec, field);
        if (!v.isEmpty()) {
            NameValidation.dns1123Subdomain(v)
                    .forEach(m -> errs.add(FieldError.invalid(path.child(field).toString(), v, m)));
        }
    }

    private static void labelField(
            JsonNode spec, String field, FieldPath path, List<FieldError> errs) {
        String v = Nodes.text(spec, field);
        if (!v.isEmpty()) {
            NameValidation.dns1123Label(v)
                    .forEach(m -> errs.add(FieldError.invalid(path.child(field).toString(), v, m)));
        }
    }
}
