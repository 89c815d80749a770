package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * batch/v1 CronJobs: a required, well-formed schedule, a concurrency policy, history limits and a
 * valid job template; names leave room for the Job suffix (at most 52 characters).
 */
public final class CronJobStrategy implements Strategy {

    static final List<String> CONCURRENCY_POLICIES = List.of("Allow", "Forbid", "Replace");
    static final int MAX_NAME_LENGTH = 52;
    private static final Set<String> DESCRIPTORS =
            Set.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly");
    private static final Pattern FIELD = Pattern.compile("^[0-9A-Za-z*?/,\\-]+$");
    private static final Pattern EVERY =
            Pattern.compile("^@every\\s+([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$");
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public void applyDefaults(ObjectNode obj) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        Nodes.defaultText(spec, "concurrencyPolicy", "Allow");
        Nodes.defaultBool(spec, "suspend", false);
        Nodes.defaultInt(spec, "successfulJobsHistoryLimit", 3);
        Nodes.defaultInt(spec, "failedJobsHistoryLimit", 1);
        ObjectNode jobSpec = Nodes.obj(Nodes.obj(spec, "jobTemplate"), "spec");
        PodDefaults.defaultPodTemplate(Nodes.obj(jobSpec, "template"));
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(obj.path("metadata"), "name");
        if (name.length() > MAX_NAME_LENGTH) {
            errs.add(
                    FieldError.invalid(
                            "metadata.name",
                            name,
                            "must be no more than " + MAX_NAME_LENGTH + " characters"));
        }
        JsonNode spec = obj.path("spec");
        String schedule = Nodes.text(spec, "schedule");
        if (schedule.isEmpty()) {
            errs.add(FieldError.required(SPEC.child("schedule").toString(), ""));
        } else {
            String problem = scheduleProblem(schedule);
            if (problem != null) {
                errs.add(FieldError.invalid(SPEC.child("schedule").toString(), schedule, problem));
            }
        }
        errs.addAll(FieldChecks.enumField(spec, "concurrencyPolicy", CONCURRENCY_POLICIES, SPEC));
        for (String f :
                new String[] {
                    "startingDeadlineSeconds",
                    "successfulJobsHistoryLimit",
                    "failedJobsHistoryLimit"
                }) {
            errs.addAll(WorkloadStrategy.nonNegative(spec, f, SPEC));
        }
        errs.addAll(
                JobStrategy.validateJobSpec(
                        Nodes.at(spec, "jobTemplate", "spec"),
                        SPEC.child("jobTemplate", "spec"),
                        false));
        return errs;
    }

    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return Nodes.F.objectNode();
    }

    /**
     * Why a standard (5-field) cron schedule does not parse, in robfig/cron's words, or null. Field
     * contents are checked for their character set only.
     */
    static String scheduleProblem(String schedule) {
        String s = schedule.trim();
        if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
            return "cannot use TZ or CRON_TZ in schedule, use timeZone field instead";
        }
        if (s.startsWith("@")) {
            if (DESCRIPTORS.contains(s) || EVERY.matcher(s).matches()) {
                return null;
            }
            return "unrecognized descriptor: " + s;
        }
        String[] fields = s.isEmpty() ? new String[0] : s.split("\\s+");
        if (fields.length != 5) {
            return "expected exactly 5 fields, found "
                    + fields.length
                    + ": ["
                    + String.join(" ", Arrays.asList(fields))
                    + "]";
        }
        for (String f : fields) {
            if (!FIELD.matcher(f).matches()) {
                return "failed to parse int from "
                        + f
                        + ": strconv.Atoi: parsing \""
                        + f
                        + "\": invalid syntax";
            }
        }
        return null;
    }
}
