package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * batch/v1 Jobs as {@code kubectl get jobs} shows them: a Status derived from the conditions,
 * Completions, Duration, Age, and in wide output the containers, images and selector.
 */
public final class JobPrinter implements TablePrinter {

    private static final String JOB_SELECTOR =
            "A label query over pods that should match the pod count. Normally, "
                    + "the system sets this field for you."
                    + WorkloadColumns.LABEL_SELECTORS_INFO;

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Status", "Status of the job."),
                    Column.string(
                            "Completions",
                            "The number of pods which reached phase Succeeded. The value increases "
                                    + "monotonically for a given spec. However, it may decrease in reaction to scale down of elastic "
                                    + "indexed jobs."),
                    Column.string("Duration", "Time required to complete the job."),
                    WorkloadColumns.AGE,
                    WorkloadColumns.CONTAINERS,
                    WorkloadColumns.IMAGES,
                    Column.string("Selector", JOB_SELECTOR).wide());

    /** The Selector column's description, which CronJobs share. */
    static String selectorDescription() {
        return JOB_SELECTOR;
    }

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        WorkloadCells.Containers containers =
                WorkloadCells.containers(spec.path("template").path("spec"));
        return List.of(
                WorkloadCells.name(object),
                status(object),
                completions(spec, object.path("status")),
                duration(object.path("status"), now),
                Ages.of(object, now),
                containers.names(),
                containers.images(),
                WorkloadCells.labelSelector(spec.path("selector")));
    }

    /**
     * The finished conditions win over a pending deletion, which wins over the interim ones; a Job
     * with none of them is Running.
     */
    static String status(JsonNode job) {
        JsonNode conditions = job.path("status").path("conditions");
        if (hasCondition(conditions, "Complete")) {
            return "Complete";
        }
        if (hasCondition(conditions, "Failed")) {
            return "Failed";
        }
        if (WorkloadCells.isSet(job.path("metadata").path("deletionTimestamp"))) {
            return "Terminating";
        }
        if (hasCondition(conditions, "Suspended")) {
            return "Suspended";
        }
        if (hasCondition(conditions, "FailureTarget")) {
            return "FailureTarget";
        }
        if (hasCondition(conditions, "SuccessCriteriaMet")) {
            return "SuccessCriteriaMet";
        }
        return "Running";
    }

    /** Like kube, only the first condition of a type counts. */
    private static boolean hasCondition(JsonNode conditions, String type) {
        if (!conditions.isArray()) {
            return false;
        }
        for (JsonNode c : conditions) {
            if (type.equals(c.path("type").asText(null))) {
                return "True".equals(c.path("status").asText(null));
            }
        }
        return false;
    }

    /**
     * {@code succeeded/completions}; a work-queue Job (no completions) counts to 1, and names its
     * parallelism when that is above 1.
     */
    static String completions(JsonNode spec, JsonNode status) {
        long succeeded = WorkloadCells.count(status.path("succeeded"));
        JsonNode completions = spec.path("completions");
        if (WorkloadCells.isSet(completions)) {
            return succeeded + "/" + WorkloadCells.count(completions);
        }
        long parallelism = WorkloadCells.count(spec.path("parallelism"));
        return parallelism > 1 ? succeeded + "/1 of " + parallelism : succeeded + "/1";
    }

    /**
     * Empty before the Job starts; time since the start while it runs; start to completion after.
     */
    static String duration(JsonNode status, Instant now) {
        Optional<Instant> start = WorkloadCells.instant(status.get("startTime"));
        if (start.isEmpty()) {
            return "";
        }
        Optional<Instant> completion = WorkloadCells.instant(status.get("completionTime"));
        return Ages.human(Duration.between(start.get(), completion.orElse(now)));
    }
}
