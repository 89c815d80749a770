package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * The kind-specific spec fields of Deployments, StatefulSets and DaemonSets (strategies, limits).
 */
final class WorkloadSpecs {
    private WorkloadSpecs() {}

    static List<FieldError> deployment(JsonNode spec, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        errs.addAll(WorkloadStrategy.nonNegative(spec, "minReadySeconds", path));
        errs.addAll(WorkloadStrategy.nonNegative(spec, "revisionHistoryLimit", path));
        JsonNode strategy = spec.path("strategy");
        FieldPath sp = path.child("strategy");
        switch (Nodes.text(strategy, "type")) {
            case "Recreate" -> {
                if (Nodes.has(strategy, "rollingUpdate")) {
                    errs.add(
                            FieldError.forbidden(
                                    sp.child("rollingUpdate").toString(),
                                    "may not be specified when strategy `type` is 'Recreate'"));
                }
            }
            case "RollingUpdate" -> {
                if (!Nodes.has(strategy, "rollingUpdate")) {
                    errs.add(
                            FieldError.required(
                                    sp.child("rollingUpdate").toString(),
                                    "this should be defaulted and never be nil"));
                } else {
                    errs.addAll(
                            rollingUpdate(
                                    strategy.get("rollingUpdate"), sp.child("rollingUpdate")));
                }
            }
            default ->
                    errs.add(
                            FieldError.notSupported(
                                    sp.toString(),
                                    BadValue.of(strategy),
                                    List.of("Recreate", "RollingUpdate")));
        }
        if (Nodes.has(spec, "progressDeadlineSeconds")) {
            long pds = spec.get("progressDeadlineSeconds").asLong();
            errs.addAll(WorkloadStrategy.nonNegative(spec, "progressDeadlineSeconds", path));
            if (pds <= spec.path("minReadySeconds").asLong(0)) {
                errs.add(
                        FieldError.invalid(
                                path.child("progressDeadlineSeconds").toString(),
                                pds,
                                "must be greater than minReadySeconds"));
            }
        }
        return errs;
    }

    static List<FieldError> statefulSet(JsonNode spec, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String pmp = Nodes.text(spec, "podManagementPolicy");
        if (pmp.isEmpty()) {
            errs.add(FieldError.required(path.child("podManagementPolicy").toString(), ""));
        } else if (!pmp.equals("OrderedReady") && !pmp.equals("Parallel")) {
            errs.add(
                    FieldError.invalid(
                            path.child("podManagementPolicy").toString(),
                            pmp,
                            "must be 'OrderedReady' or 'Parallel'"));
        }
        JsonNode strategy = spec.path("updateStrategy");
        FieldPath sp = path.child("updateStrategy");
        switch (Nodes.text(strategy, "type")) {
            case "" -> errs.add(FieldError.required(sp.toString(), ""));
            case "OnDelete" -> {
                if (Nodes.has(strategy, "rollingUpdate")) {
                    errs.add(
                            FieldError.invalid(
                                    sp.child("rollingUpdate").toString(),
                                    BadValue.of(strategy.get("rollingUpdate")),
                                    "only allowed for updateStrategy 'RollingUpdate'"));
                }
            }
            case "RollingUpdate" ->
                    errs.addAll(
                            WorkloadStrategy.nonNegative(
                                    strategy.path("rollingUpdate"),
                                    "partition",
                                    sp.child("rollingUpdate")));
            default ->
                    errs.add(
                            FieldError.invalid(
                                    sp.toString(),
                                    BadValue.of(strategy),
                                    "must be 'RollingUpdate' or 'OnDelete'"));
        }
        errs.addAll(WorkloadStrategy.nonNegative(spec, "minReadySeconds", path));
        return errs;
    }

    static List<FieldError> daemonSet(JsonNode spec, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        errs.addAll(WorkloadStrategy.nonNegative(spec, "minReadySeconds", path));
        errs.addAll(WorkloadStrategy.nonNegative(spec, "revisionHistoryLimit", path));
        JsonNode strategy = spec.path("updateStrategy");
        FieldPath sp = path.child("updateStrategy");
        switch (Nodes.text(strategy, "type")) {
            case "OnDelete" -> {}
            case "RollingUpdate" -> {
                if (!Nodes.has(strategy, "rollingUpdate")) {
                    errs.add(FieldError.required(sp.child("rollingUpdate").toString(), ""));
                } else {
                    errs.addAll(
                            rollingUpdate(
                                    strategy.get("rollingUpdate"), sp.child("rollingUpdate")));
                }
            }
            default ->
                    errs.add(
                            FieldError.notSupported(
                                    sp.toString(),
                                    BadValue.of(strategy),
                                    List.of("OnDelete", "RollingUpdate")));
        }
        return errs;
    }

    /**
     * maxUnavailable and maxSurge: non-negative ints or percentages, not both 0, maxUnavailable at
     * most 100%.
     */
    private static List<FieldError> rollingUpdate(JsonNode ru, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode maxUnavailable = ru.path("maxUnavailable");
        JsonNode maxSurge = ru.path("maxSurge");
        errs.addAll(intOrPercent(maxUnavailable, path.child("maxUnavailable")));
        errs.addAll(intOrPercent(maxSurge, path.child("maxSurge")));
        if (value(maxUnavailable) == 0 && value(maxSurge) == 0) {
            errs.add(
                    FieldError.invalid(
                            path.child("maxUnavailable").toString(),
                            Nodes.intOrString(maxUnavailable),
                            "may not be 0 when `maxSurge` is 0"));
        }
        if (maxUnavailable.isTextual() && value(maxUnavailable) > 100) {
            errs.add(
                    FieldError.invalid(
                            path.child("maxUnavailable").toString(),
                            maxUnavailable.asText(),
                            "must not be greater than 100%"));
        }
        return errs;
    }

    static List<FieldError> intOrPercent(JsonNode v, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (v.isMissingNode() || v.isNull()) {
            return errs;
        }
        if (v.isTextual()) {
            NameValidation.percent(v.asText())
                    .forEach(m -> errs.add(FieldError.invalid(path.toString(), v.asText(), m)));
        } else if (v.asLong() < 0) {
            errs.add(
                    FieldError.invalid(
                            path.toString(), v.asLong(), "must be greater than or equal to 0"));
        }
        return errs;
    }

    /** The number of an int or "N%" value; -1 when it is neither. */
    static long value(JsonNode v) {
        if (v.isMissingNode() || v.isNull()) {
            return 0;
        }
        if (v.isTextual()) {
            String s = v.asText();
            return s.matches("[0-9]+%") ? Long.parseLong(s.substring(0, s.length() - 1)) : -1;
        }
        return v.asLong();
    }
}
