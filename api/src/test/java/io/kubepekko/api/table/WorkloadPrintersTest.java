package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.api.definition.BuiltinDefinitions;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class WorkloadPrintersTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Column names with their priority, e.g. {@code Containers/1}. */
    private static List<String> header(TablePrinter printer) {
        return printer.columns().stream()
                .map(c -> c.name() + "/" + c.priority())
                .collect(Collectors.toList());
    }

    private static Column column(TablePrinter printer, String name) {
        return printer.columns().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static final String TEMPLATE =
            "'template':{'spec':{'containers':["
                    + "{'name':'web','image':'nginx:1.27'},{'name':'sidecar','image':'busybox'}]}}";

    // --- lookup

    /** The six printers of the family, as their kinds' definitions carry them. */
    private static final List<TablePrinter> FAMILY =
            List.of(
                    BuiltinDefinitions.printer("apps", "Deployment"),
                    BuiltinDefinitions.printer("apps", "ReplicaSet"),
                    BuiltinDefinitions.printer("apps", "StatefulSet"),
                    BuiltinDefinitions.printer("apps", "DaemonSet"),
                    BuiltinDefinitions.printer("batch", "Job"),
                    BuiltinDefinitions.printer("batch", "CronJob"));

    @Test
    void everyWorkloadKindIsDefinedWithItsOwnPrinter() {
        for (String kind : List.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet")) {
            assertEquals(
                    kind + "Printer",
                    BuiltinDefinitions.printer("apps", kind).getClass().getSimpleName(),
                    kind);
        }
        assertInstanceOf(JobPrinter.class, BuiltinDefinitions.printer("batch", "Job"));
        assertInstanceOf(CronJobPrinter.class, BuiltinDefinitions.printer("batch", "CronJob"));
        assertEquals(6, FAMILY.stream().distinct().count());
    }

    // --- Deployment

    @Test
    void deploymentColumnsAreKubes() {
        TablePrinter p = BuiltinDefinitions.printer("apps", "Deployment");
        assertEquals(
                List.of(
                        "Name/0",
                        "Ready/0",
                        "Up-to-date/0",
                        "Available/0",
                        "Age/0",
                        "Containers/1",
                        "Images/1",
                        "Selector/1"),
                header(p));
        assertEquals(Column.NAME, p.columns().get(0));
        // kube declares Up-to-date and Available as strings even though it fills them with integers
        assertEquals("string", column(p, "Up-to-date").type());
        assertEquals("string", column(p, "Available").type());
        assertEquals("Number of the pod with ready state", column(p, "Ready").description());
        assertEquals(
                "Total number of available non-terminating pods (ready for at least minReadySeconds) "
                        + "targeted by this deployment.",
                column(p, "Available").description());
        assertEquals(Descriptions.CREATION_TIMESTAMP, column(p, "Age").description());
    }

    @Test
    void deploymentCells() {
        JsonNode d =
                json(
                        "{'metadata':{'name':'web','creationTimestamp':'2025-06-01T11:55:30Z'},"
                                + "'spec':{'replicas':3,'selector':{'matchLabels':{'tier':'front','app':'web'},"
                                + "'matchExpressions':[{'key':'env','operator':'In','values':['prod','canary']}]},"
                                + TEMPLATE
                                + "},"
                                + "'status':{'readyReplicas':2,'updatedReplicas':3,'availableReplicas':2}}");
        assertEquals(
                List.of(
                        "web",
                        "2/3",
                        3L,
                        2L,
                        "4m30s",
                        "web,sidecar",
                        "nginx:1.27,busybox",
                        "app=web,env in (canary,prod),tier=front"),
                BuiltinDefinitions.printer("apps", "Deployment").cells(d, NOW));
    }

    @Test
    void deploymentWithoutStatusOrReplicasReadsAsDefaulted() {
        JsonNode d = json("{'metadata':{'name':'new'},'spec':{}}");
        // replicas defaults to 1; kube prints an empty selector as nothing at all, not <none>
        assertEquals(
                List.of("new", "0/1", 0L, 0L, "<unknown>", "", "", ""),
                BuiltinDefinitions.printer("apps", "Deployment").cells(d, NOW));
    }

    @Test
    void deploymentWithAnInvalidSelectorSaysInvalid() {
        JsonNode d =
                json(
                        "{'metadata':{'name':'bad'},'spec':{'replicas':0,'selector':{'matchExpressions':"
                                + "[{'key':'app','operator':'In','values':[]}]}}}");
        assertEquals(
                "<invalid>", BuiltinDefinitions.printer("apps", "Deployment").cells(d, NOW).get(7));
        assertEquals("0/0", BuiltinDefinitions.printer("apps", "Deployment").cells(d, NOW).get(1));
    }

    // --- ReplicaSet

    @Test
    void replicaSetColumnsAreKubes() {
        TablePrinter p = BuiltinDefinitions.printer("apps", "ReplicaSet");
        assertEquals(
                List.of(
                        "Name/0",
                        "Desired/0",
                        "Current/0",
                        "Ready/0",
                        "Age/0",
                        "Containers/1",
                        "Images/1",
                        "Selector/1"),
                header(p));
        assertEquals("integer", column(p, "Desired").type());
        assertEquals("integer", column(p, "Ready").type());
        assertEquals("string", column(p, "Selector").type());
        assertEquals(
                "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.",
                column(p, "Ready").description());
    }

    @Test
    void replicaSetCells() {
        JsonNode rs =
                json(
                        "{'metadata':{'name':'web-5d8f','creationTimestamp':'2025-05-30T12:00:00Z'},"
                                + "'spec':{'replicas':4,'selector':{'matchExpressions':[{'key':'tier','operator':'NotIn','values':"
                                + "['b','a']},{'key':'app','operator':'Exists'},{'key':'legacy','operator':'DoesNotExist'}]},"
                                + TEMPLATE
                                + "},'status':{'replicas':4,'readyReplicas':1}}");
        assertEquals(
                List.of(
                        "web-5d8f",
                        4L,
                        4L,
                        1L,
                        "2d",
                        "web,sidecar",
                        "nginx:1.27,busybox",
                        "app,!legacy,tier notin (a,b)"),
                BuiltinDefinitions.printer("apps", "ReplicaSet").cells(rs, NOW));
    }

    @Test
    void replicaSetSelectorIsNoneWhenEmptyAndErrorWhenInvalid() {
        TablePrinter p = BuiltinDefinitions.printer("apps", "ReplicaSet");
        assertEquals("<none>", p.cells(json("{'spec':{'selector':{}}}"), NOW).get(7));
        assertEquals("<none>", p.cells(json("{'spec':{}}"), NOW).get(7));
        assertEquals(
                "<error>",
                p.cells(
                                json(
                                        "{'spec':{'selector':{'matchExpressions':"
                                                + "[{'key':'app','operator':'Near','values':['x']}]}}}"),
                                NOW)
                        .get(7));
        assertEquals(1L, p.cells(json("{'spec':{}}"), NOW).get(1));
    }

    // --- StatefulSet

    @Test
    void statefulSetColumnsAreKubes() {
        TablePrinter p = BuiltinDefinitions.printer("apps", "StatefulSet");
        assertEquals(List.of("Name/0", "Ready/0", "Age/0", "Containers/1", "Images/1"), header(p));
        assertEquals("string", column(p, "Ready").type());
    }

    @Test
    void statefulSetCells() {
        JsonNode s =
                json(
                        "{'metadata':{'name':'db','creationTimestamp':'2025-06-01T09:30:00Z'},"
                                + "'spec':{'replicas':3,"
                                + TEMPLATE
                                + "},'status':{'replicas':3,'readyReplicas':3}}");
        assertEquals(
                List.of("db", "3/3", "150m", "web,sidecar", "nginx:1.27,busybox"),
                BuiltinDefinitions.printer("apps", "StatefulSet").cells(s, NOW));
    }

    // --- DaemonSet

    @Test
    void daemonSetColumnsAreKubes() {
        TablePrinter p = BuiltinDefinitions.printer("apps", "DaemonSet");
        assertEquals(
                List.of(
                        "Name/0",
                        "Desired/0",
                        "Current/0",
                        "Ready/0",
                        "Up-to-date/0",
                        "Available/0",
                        "Node Selector/0",
                        "Age/0",
                        "Containers/1",
                        "Images/1",
                        "Selector/1"),
                header(p));
        assertEquals("integer", column(p, "Up-to-date").type());
        assertEquals("string", column(p, "Node Selector").type());
        assertEquals(
                "The total number of nodes that are running updated daemon pod",
                column(p, "Up-to-date").description());
    }

    @Test
    void daemonSetCells() {
        JsonNode ds =
                json(
                        "{'metadata':{'name':'agent','creationTimestamp':'2025-06-01T04:00:00Z'},"
                                + "'spec':{'selector':{'matchLabels':{'app':'agent'}},'template':{'spec':{"
                                + "'nodeSelector':{'disk':'ssd','a':'y','a-b':'x'},"
                                + "'containers':[{'name':'agent','image':'agent:2'}]}}},"
                                + "'status':{'desiredNumberScheduled':5,'currentNumberScheduled':4,'numberReady':3,"
                                + "'updatedNumberScheduled':2,'numberAvailable':1}}");
        // pairs sort as whole strings, as kube's FormatLabels does: "a-b=x" before "a=y"
        assertEquals(
                List.of(
                        "agent",
                        5L,
                        4L,
                        3L,
                        2L,
                        1L,
                        "a-b=x,a=y,disk=ssd",
                        "8h",
                        "agent",
                        "agent:2",
                        "app=agent"),
                BuiltinDefinitions.printer("apps", "DaemonSet").cells(ds, NOW));
    }

    @Test
    void daemonSetWithoutNodeSelectorSaysNone() {
        List<Object> cells =
                BuiltinDefinitions.printer("apps", "DaemonSet")
                        .cells(json("{'metadata':{'name':'x'}}"), NOW);
        assertEquals(
                List.of("x", 0L, 0L, 0L, 0L, 0L, "<none>", "<unknown>", "", "", "<none>"), cells);
    }

    // --- Job

    @Test
    void jobColumnsAreKubes() {
        TablePrinter p = BuiltinDefinitions.printer("batch", "Job");
        assertEquals(
                List.of(
                        "Name/0",
                        "Status/0",
                        "Completions/0",
                        "Duration/0",
                        "Age/0",
                        "Containers/1",
                        "Images/1",
                        "Selector/1"),
                header(p));
        assertEquals("string", column(p, "Completions").type());
        assertEquals("Status of the job.", column(p, "Status").description());
        assertEquals("Time required to complete the job.", column(p, "Duration").description());
    }

    @Test
    void completedJobCells() {
        JsonNode job =
                json(
                        "{'metadata':{'name':'pi','creationTimestamp':'2025-06-01T11:00:00Z'},"
                                + "'spec':{'completions':1,'parallelism':1,'selector':{'matchLabels':"
                                + "{'batch.kubernetes.io/controller-uid':'abc'}},"
                                + TEMPLATE
                                + "},"
                                + "'status':{'succeeded':1,'startTime':'2025-06-01T11:00:02Z','completionTime':'2025-06-01T11:02:17Z',"
                                + "'conditions':[{'type':'SuccessCriteriaMet','status':'True'},{'type':'Complete','status':'True'}]}}");
        assertEquals(
                List.of(
                        "pi",
                        "Complete",
                        "1/1",
                        "2m15s",
                        "60m",
                        "web,sidecar",
                        "nginx:1.27,busybox",
                        "batch.kubernetes.io/controller-uid=abc"),
                BuiltinDefinitions.printer("batch", "Job").cells(job, NOW));
    }

    @Test
    void runningJobDurationIsTimeSinceStart() {
        JsonNode job =
                json(
                        "{'metadata':{'name':'w'},'spec':{'completions':5},"
                                + "'status':{'succeeded':2,'active':3,'startTime':'2025-06-01T11:59:15Z'}}");
        List<Object> cells = BuiltinDefinitions.printer("batch", "Job").cells(job, NOW);
        assertEquals(List.of("Running", "2/5", "45s"), cells.subList(1, 4));
    }

    @Test
    void unstartedJobHasNoDuration() {
        JsonNode job =
                json(
                        "{'metadata':{'name':'w'},'spec':{'suspend':true,'completions':3},"
                                + "'status':{'conditions':[{'type':'Suspended','status':'True'}]}}");
        assertEquals(
                List.of("Suspended", "0/3", ""),
                BuiltinDefinitions.printer("batch", "Job").cells(job, NOW).subList(1, 4));
    }

    @Test
    void jobCompletionsForms() {
        assertEquals(
                "2/4",
                JobPrinter.completions(
                        json("{'completions':4,'parallelism':2}"), json("{'succeeded':2}")));
        // Indexed jobs always have completions, so they print as succeeded/completions too
        assertEquals(
                "0/10",
                JobPrinter.completions(
                        json("{'completions':10,'completionMode':'Indexed'}"), json("{}")));
        // a work queue (no completions) counts to one, naming the parallelism above one
        assertEquals(
                "1/1 of 3",
                JobPrinter.completions(json("{'parallelism':3}"), json("{'succeeded':1}")));
        assertEquals("0/1", JobPrinter.completions(json("{'parallelism':1}"), json("{}")));
        assertEquals("0/1", JobPrinter.completions(json("{'completions':null}"), json("{}")));
        assertEquals("0/0", JobPrinter.completions(json("{'completions':0}"), json("{}")));
    }

    @Test
    void jobStatusFollowsKubesPrecedence() {
        assertEquals("Running", JobPrinter.status(json("{}")));
        assertEquals("Complete", JobPrinter.status(job(null, "Complete")));
        assertEquals("Failed", JobPrinter.status(job(null, "FailureTarget", "Failed")));
        // finished conditions beat a pending deletion; the deletion beats the interim conditions
        assertEquals("Complete", JobPrinter.status(job("2025-06-01T11:59:00Z", "Complete")));
        assertEquals("Terminating", JobPrinter.status(job("2025-06-01T11:59:00Z", "Suspended")));
        assertEquals("Terminating", JobPrinter.status(job("2025-06-01T11:59:00Z")));
        assertEquals("Suspended", JobPrinter.status(job(null, "Suspended")));
        assertEquals("FailureTarget", JobPrinter.status(job(null, "FailureTarget")));
        assertEquals("SuccessCriteriaMet", JobPrinter.status(job(null, "SuccessCriteriaMet")));
        assertEquals("Suspended", JobPrinter.status(job(null, "SuccessCriteriaMet", "Suspended")));
    }

    @Test
    void jobConditionsCountOnlyWhenTrueAndOnlyTheFirstOfAType() {
        assertEquals(
                "Running",
                JobPrinter.status(
                        json(
                                "{'status':{'conditions':"
                                        + "[{'type':'Suspended','status':'False'}]}}")));
        assertEquals(
                "Running",
                JobPrinter.status(
                        json(
                                "{'status':{'conditions':"
                                        + "[{'type':'Complete','status':'Unknown'},{'type':'Complete','status':'True'}]}}")));
    }

    private static JsonNode job(String deletionTimestamp, String... trueConditions) {
        StringBuilder s = new StringBuilder("{'metadata':{'name':'j'");
        if (deletionTimestamp != null) {
            s.append(",'deletionTimestamp':'").append(deletionTimestamp).append('\'');
        }
        s.append("},'status':{'conditions':[");
        for (int i = 0; i < trueConditions.length; i++) {
            s.append(i == 0 ? "" : ",")
                    .append("{'type':'")
                    .append(trueConditions[i])
                    .append("','status':'True'}");
        }
        return json(s.append("]}}").toString());
    }

    // --- CronJob

    @Test
    void cronJobColumnsAreKubes() {
        TablePrinter p = BuiltinDefinitions.printer("batch", "CronJob");
        assertEquals(
                List.of(
                        "Name/0",
                        "Schedule/0",
                        "Timezone/0",
                        "Suspend/0",
                        "Active/0",
                        "Last Schedule/0",
                        "Age/0",
                        "Containers/1",
                        "Images/1",
                        "Selector/1"),
                header(p));
        assertEquals("boolean", column(p, "Suspend").type());
        assertEquals("integer", column(p, "Active").type());
        assertEquals(
                "This flag tells the controller to suspend subsequent executions, it does not apply to "
                        + "already started executions.  Defaults to false.",
                column(p, "Suspend").description());
        assertEquals(
                column(BuiltinDefinitions.printer("batch", "Job"), "Selector"),
                column(p, "Selector"));
    }

    @Test
    void cronJobCells() {
        JsonNode cj =
                json(
                        "{'metadata':{'name':'nightly','creationTimestamp':'2025-05-01T12:00:00Z'},"
                                + "'spec':{'schedule':'0 3 * * *','timeZone':'Europe/Berlin','suspend':true,"
                                + "'jobTemplate':{'spec':{"
                                + TEMPLATE
                                + "}}},"
                                + "'status':{'active':[{'name':'nightly-1'},{'name':'nightly-2'}],"
                                + "'lastScheduleTime':'2025-06-01T03:00:00Z'}}");
        // the Suspend cell is the string kube sends, not a JSON boolean
        assertEquals(
                List.of(
                        "nightly",
                        "0 3 * * *",
                        "Europe/Berlin",
                        "True",
                        2L,
                        "9h",
                        "31d",
                        "web,sidecar",
                        "nginx:1.27,busybox",
                        "<none>"),
                BuiltinDefinitions.printer("batch", "CronJob").cells(cj, NOW));
    }

    @Test
    void cronJobNeverRunWithoutTimezone() {
        JsonNode cj =
                json(
                        "{'metadata':{'name':'hourly','creationTimestamp':'2025-06-01T11:59:58Z'},"
                                + "'spec':{'schedule':'@hourly','suspend':false,'jobTemplate':{'spec':{'selector':"
                                + "{'matchLabels':{'app':'h'}}}}}}");
        assertEquals(
                List.of(
                        "hourly", "@hourly", "<none>", "False", 0L, "<none>", "2s", "", "",
                        "app=h"),
                BuiltinDefinitions.printer("batch", "CronJob").cells(cj, NOW));
        // suspend is defaulted to false by the API, so an unset one reads False as well
        assertEquals(
                "False",
                BuiltinDefinitions.printer("batch", "CronJob").cells(json("{}"), NOW).get(3));
    }

    // --- robustness

    @Test
    void oddlyShapedObjectsNeverThrowAndKeepOneCellPerColumn() {
        List<JsonNode> odd =
                List.of(
                        json("{}"),
                        json("{'metadata':[],'spec':'x','status':7}"),
                        json(
                                "{'spec':{'replicas':'3','selector':'app=x','template':{'spec':{'containers':{'a':1},"
                                        + "'nodeSelector':['x']}},'jobTemplate':[]},'status':{'conditions':{},'active':'2',"
                                        + "'startTime':'yesterday','lastScheduleTime':5,'succeeded':1.5}}"),
                        json("[1,2]"));
        for (TablePrinter p : FAMILY) {
            for (JsonNode o : odd) {
                List<Object> cells = assertDoesNotThrow(() -> p.cells(o, NOW));
                assertEquals(p.columns().size(), cells.size());
                assertTrue(cells.stream().allMatch(c -> c instanceof String || c instanceof Long));
            }
        }
    }
}
