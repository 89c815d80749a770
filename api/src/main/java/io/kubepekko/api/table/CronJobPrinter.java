package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * batch/v1 CronJobs as {@code kubectl get cronjobs} shows them: Schedule, Timezone, Suspend, the
 * number of Active jobs, Last Schedule, Age, and in wide output the job template's containers,
 * images and selector.
 */
public final class CronJobPrinter implements TablePrinter {

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string(
                            "Schedule",
                            "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
                    Column.string(
                            "Timezone",
                            "The time zone name for the given schedule, see "
                                    + "https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will "
                                    + "default to the time zone of the kube-controller-manager process. The set of valid time zone "
                                    + "names and the time zone offset is loaded from the system-wide time zone database by the API "
                                    + "server during CronJob validation and the controller manager during execution. If no "
                                    + "system-wide time zone database can be found a bundled version of the database is used instead. "
                                    + "If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in "
                                    + "host configuration, the controller will stop creating new new Jobs and will create a system "
                                    + "event with the reason UnknownTimeZone. More information can be found in "
                                    + "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones This is beta "
                                    + "field and must be enabled via the `CronJobTimeZone` feature gate."),
                    // The double space is in Kubernetes' text.
                    new Column(
                            "Suspend",
                            "boolean",
                            "",
                            "This flag tells the controller to suspend subsequent executions, "
                                    + "it does not apply to already started executions.  Defaults to false.",
                            0),
                    Column.integer("Active", "A list of pointers to currently running jobs."),
                    Column.string(
                            "Last Schedule",
                            "Information when was the last time the job was successfully scheduled."),
                    WorkloadColumns.AGE,
                    WorkloadColumns.CONTAINERS,
                    WorkloadColumns.IMAGES,
                    Column.string("Selector", JobPrinter.selectorDescription()).wide());

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        JsonNode spec = object.path("spec");
        JsonNode status = object.path("status");
        JsonNode jobSpec = spec.path("jobTemplate").path("spec");
        WorkloadCells.Containers containers =
                WorkloadCells.containers(jobSpec.path("template").path("spec"));
        JsonNode timeZone = spec.path("timeZone");
        JsonNode lastSchedule = status.path("lastScheduleTime");
        JsonNode active = status.path("active");
        return List.of(
                WorkloadCells.name(object),
                WorkloadCells.text(spec.path("schedule"), ""),
                WorkloadCells.isSet(timeZone) ? WorkloadCells.text(timeZone, "") : "<none>",
                // Kube sends this boolean column's cell as the string True/False; suspend is
                // defaulted
                // to false, so an unset one prints False.
                WorkloadCells.bool(spec.path("suspend"), false),
                (long) (active.isArray() ? active.size() : 0),
                WorkloadCells.isSet(lastSchedule) ? Ages.since(lastSchedule, now) : "<none>",
                Ages.of(object, now),
                containers.names(),
                containers.images(),
                WorkloadCells.labelSelector(jobSpec.path("selector")));
    }
}
