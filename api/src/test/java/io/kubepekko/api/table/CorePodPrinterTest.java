package io.kubepekko.api.table;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.meta.Json;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pod printer's columns and kube's status, readiness and restart derivations. */
class CorePodPrinterTest {

    static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    private static final TablePrinter PODS = BuiltinDefinitions.printer("", "Pod");

    /** JSON with single quotes for readability. */
    static JsonNode json(String singleQuoted) {
        try {
            return Json.MAPPER.readTree(singleQuoted.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A pod created an hour before {@link #NOW}, with the given spec and status bodies. */
    static JsonNode pod(String spec, String status) {
        return json(
                "{'metadata':{'name':'web','creationTimestamp':'2025-01-01T11:00:00Z'},"
                        + "'spec':"
                        + spec
                        + ",'status':"
                        + status
                        + "}");
    }

    private static List<Object> cells(JsonNode pod) {
        return PODS.cells(pod, NOW);
    }

    private static String ready(JsonNode pod) {
        return (String) cells(pod).get(1);
    }

    private static String status(JsonNode pod) {
        return (String) cells(pod).get(2);
    }

    private static String restarts(JsonNode pod) {
        return (String) cells(pod).get(3);
    }

    private static final String ONE = "{'containers':[{'name':'app'}]}";
    private static final String TWO = "{'containers':[{'name':'a'},{'name':'b'}]}";
    private static final String RUNNING_READY =
            "'ready':true,'state':{'running':{'startedAt':'2025-01-01T11:00:00Z'}}";

    @Test
    void columnsAreKubesInOrderWithWidePriorities() {
        List<Column> columns = PODS.columns();
        assertEquals(
                List.of(
                        "Name",
                        "Ready",
                        "Status",
                        "Restarts",
                        "Age",
                        "IP",
                        "Node",
                        "Nominated Node",
                        "Readiness Gates"),
                columns.stream().map(Column::name).toList());
        assertEquals(
                List.of(0, 0, 0, 0, 0, 1, 1, 1, 1),
                columns.stream().map(Column::priority).toList());
        assertEquals(Column.NAME, columns.get(0));
        assertEquals(
                new Column(
                        "Restarts",
                        "string",
                        "",
                        "The number of times the containers in this pod have been restarted and when the last container in "
                                + "this pod has restarted.",
                        0),
                columns.get(3));
        assertEquals(
                new Column(
                        "IP",
                        "string",
                        "",
                        "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.",
                        1),
                columns.get(5));
        assertEquals(Descriptions.CREATION_TIMESTAMP, columns.get(4).description());
    }

    @Test
    void runningPodWithRestartsShowsWhenTheLastOneWas() {
        JsonNode pod =
                pod(
                        TWO,
                        "{'phase':'Running','podIP':'10.1.0.7','conditions':[{'type':'Ready','status':'True'}],"
                                + "'containerStatuses':["
                                + "{'name':'a','restartCount':2,"
                                + RUNNING_READY
                                + ",'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:30:00Z'}}},"
                                + "{'name':'b','restartCount':4,"
                                + RUNNING_READY
                                + ",'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:50:00Z'}}}]}");
        assertEquals(
                List.of(
                        "web",
                        "2/2",
                        "Running",
                        "6 (10m ago)",
                        "60m",
                        "10.1.0.7",
                        "<none>",
                        "<none>",
                        "<none>"),
                cells(pod));
    }

    @Test
    void pendingPodWithoutStatusesShowsThePhaseAndZeroRestarts() {
        JsonNode pod = pod(ONE, "{'phase':'Pending'}");
        assertEquals(
                List.of(
                        "web", "0/1", "Pending", "0", "60m", "<none>", "<none>", "<none>",
                        "<none>"),
                cells(pod));
    }

    @Test
    void restartsWithoutAnEarlierTerminationAreABareCount() {
        JsonNode pod =
                pod(
                        ONE,
                        "{'phase':'Running','containerStatuses':[{'name':'app','restartCount':3,"
                                + RUNNING_READY
                                + "}]}");
        assertEquals("3", restarts(pod));
    }

    @Test
    void statusReasonOverridesThePhase() {
        assertEquals("Evicted", status(pod(ONE, "{'phase':'Failed','reason':'Evicted'}")));
    }

    @Test
    void waitingReasonOfAContainerNamesTheStatus() {
        JsonNode pod =
                pod(
                        ONE,
                        "{'phase':'Running','containerStatuses':[{'name':'app','restartCount':5,"
                                + "'state':{'waiting':{'reason':'CrashLoopBackOff'}},"
                                + "'lastState':{'terminated':{'exitCode':1,'reason':'Error','finishedAt':'2025-01-01T11:58:30Z'}}}]}");
        assertEquals("0/1", ready(pod));
        assertEquals("CrashLoopBackOff", status(pod));
        assertEquals("5 (90s ago)", restarts(pod));
    }

    @Test
    void terminatedContainersShowTheirReasonOrSignalOrExitCode() {
        assertEquals(
                "Completed",
                status(
                        pod(
                                ONE,
                                "{'phase':'Succeeded','containerStatuses':[{'name':'app',"
                                        + "'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}")));
        assertEquals(
                "Signal:9",
                status(
                        pod(
                                ONE,
                                "{'phase':'Failed','containerStatuses':[{'name':'app',"
                                        + "'state':{'terminated':{'exitCode':137,'signal':9}}}]}")));
        assertEquals(
                "ExitCode:2",
                status(
                        pod(
                                ONE,
                                "{'phase':'Failed','containerStatuses':[{'name':'app',"
                                        + "'state':{'terminated':{'exitCode':2}}}]}")));
    }

    @Test
    void theFirstContainerWithAReasonWins() {
        JsonNode pod =
                pod(
                        TWO,
                        "{'phase':'Running','containerStatuses':["
                                + "{'name':'a','state':{'waiting':{'reason':'ImagePullBackOff'}}},"
                                + "{'name':'b','state':{'waiting':{'reason':'ContainerCreating'}}}]}");
        assertEquals("ImagePullBackOff", status(pod));
    }

    @Test
    void completedBesideARunningContainerIsRunningOrNotReadyByTheReadyCondition() {
        String statuses =
                "'containerStatuses':[{'name':'a','state':{'terminated':{'exitCode':0,'reason':'Completed'}}},"
                        + "{'name':'b',"
                        + RUNNING_READY
                        + "}]";
        JsonNode ready =
                pod(
                        TWO,
                        "{'phase':'Running','conditions':[{'type':'Ready','status':'True'}],"
                                + statuses
                                + "}");
        assertEquals("1/2", ready(ready));
        assertEquals("Running", status(ready));
        JsonNode notReady =
                pod(
                        TWO,
                        "{'phase':'Running','conditions':[{'type':'Ready','status':'False'}],"
                                + statuses
                                + "}");
        assertEquals("NotReady", status(notReady));
    }

    @Test
    void aRunningContainerNotReadyIsNotCounted() {
        JsonNode pod =
                pod(
                        ONE,
                        "{'phase':'Running','containerStatuses':[{'name':'app','ready':false,"
                                + "'state':{'running':{}}}]}");
        assertEquals("0/1", ready(pod));
        assertEquals("Running", status(pod));
    }

    // --- init containers
    // ---------------------------------------------------------------------------

    private static final String INIT_TWO =
            "{'initContainers':[{'name':'i1'},{'name':'i2'}],'containers':[{'name':'app'}]}";

    @Test
    void initProgressCountsTheInitContainersDone() {
        JsonNode pod =
                pod(
                        INIT_TWO,
                        "{'phase':'Pending','initContainerStatuses':["
                                + "{'name':'i1','state':{'terminated':{'exitCode':0,'reason':'Completed'}}},"
                                + "{'name':'i2','state':{'running':{}}}],"
                                + "'containerStatuses':[{'name':'app','state':{'waiting':{'reason':'PodInitializing'}}}]}");
        assertEquals("0/1", ready(pod));
        assertEquals("Init:1/2", status(pod));
    }

    @Test
    void podInitializingIsNotAnInitReason() {
        JsonNode pod =
                pod(
                        INIT_TWO,
                        "{'phase':'Pending','initContainerStatuses':["
                                + "{'name':'i1','state':{'waiting':{'reason':'PodInitializing'}}},"
                                + "{'name':'i2','state':{'waiting':{'reason':'PodInitializing'}}}]}");
        assertEquals("Init:0/2", status(pod));
    }

    @Test
    void aWaitingInitContainerNamesItsReason() {
        JsonNode pod =
                pod(
                        INIT_TWO,
                        "{'phase':'Pending','initContainerStatuses':["
                                + "{'name':'i1','state':{'waiting':{'reason':'ImagePullBackOff'}}},{'name':'i2'}]}");
        assertEquals("Init:ImagePullBackOff", status(pod));
    }

    @Test
    void aFailedInitContainerShowsItsReasonSignalOrExitCode() {
        String rest = ",{'name':'i2','state':{'waiting':{'reason':'PodInitializing'}}}]}";
        assertEquals(
                "Init:Error",
                status(
                        pod(
                                INIT_TWO,
                                "{'phase':'Pending','initContainerStatuses':["
                                        + "{'name':'i1','state':{'terminated':{'exitCode':1,'reason':'Error'}}}"
                                        + rest)));
        assertEquals(
                "Init:ExitCode:3",
                status(
                        pod(
                                INIT_TWO,
                                "{'phase':'Pending','initContainerStatuses':["
                                        + "{'name':'i1','state':{'terminated':{'exitCode':3}}}"
                                        + rest)));
        assertEquals(
                "Init:Signal:15",
                status(
                        pod(
                                INIT_TWO,
                                "{'phase':'Pending','initContainerStatuses':["
                                        + "{'name':'i1','state':{'terminated':{'exitCode':143,'signal':15}}}"
                                        + rest)));
    }

    @Test
    void whileInitializingRestartsCountTheInitContainersUpToTheCurrentOne() {
        JsonNode pod =
                pod(
                        INIT_TWO,
                        "{'phase':'Pending','initContainerStatuses':["
                                + "{'name':'i1','restartCount':2,'state':{'waiting':{'reason':'CrashLoopBackOff'}},"
                                + "'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:55:00Z'}}},"
                                + "{'name':'i2','restartCount':7}],"
                                + "'containerStatuses':[{'name':'app','restartCount':9}]}");
        assertEquals("Init:CrashLoopBackOff", status(pod));
        assertEquals("2 (5m ago)", restarts(pod));
    }

    @Test
    void afterInitializationOnlyTheContainersRestartsCount() {
        JsonNode pod =
                pod(
                        INIT_TWO,
                        "{'phase':'Running','conditions':[{'type':'Initialized','status':'True'}],"
                                + "'initContainerStatuses':["
                                + "{'name':'i1','restartCount':4,'state':{'terminated':{'exitCode':0,'reason':'Completed'}},"
                                + "'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:59:00Z'}}},"
                                + "{'name':'i2','state':{'terminated':{'exitCode':0,'reason':'Completed'}}}],"
                                + "'containerStatuses':[{'name':'app','restartCount':1,"
                                + RUNNING_READY
                                + ",'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:00:00Z'}}}]}");
        assertEquals("1/1", ready(pod));
        assertEquals("Running", status(pod));
        assertEquals("1 (60m ago)", restarts(pod));
    }

    @Test
    void aFailingInitContainerOfAnInitializedPodDefersToTheContainers() {
        JsonNode pod =
                pod(
                        INIT_TWO,
                        "{'phase':'Running','conditions':[{'type':'Initialized','status':'True'}],"
                                + "'initContainerStatuses':[{'name':'i1','state':{'terminated':{'exitCode':1,'reason':'Error'}}}],"
                                + "'containerStatuses':[{'name':'app',"
                                + RUNNING_READY
                                + "}]}");
        assertEquals("1/1", ready(pod));
        assertEquals(
                "Init:Error", status(pod)); // the running app container has no reason to replace it
    }

    @Test
    void startedSidecarsCountTowardsReadyAndTheirRestartsStay() {
        String spec =
                "{'initContainers':[{'name':'proxy','restartPolicy':'Always'},{'name':'setup'}],"
                        + "'containers':[{'name':'app'}]}";
        JsonNode pod =
                pod(
                        spec,
                        "{'phase':'Running','conditions':[{'type':'Initialized','status':'True'}],"
                                + "'initContainerStatuses':["
                                + "{'name':'proxy','started':true,'ready':true,'restartCount':3,'state':{'running':{}},"
                                + "'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:58:00Z'}}},"
                                + "{'name':'setup','restartCount':1,'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}],"
                                + "'containerStatuses':[{'name':'app','restartCount':1,"
                                + RUNNING_READY
                                + ",'lastState':{'terminated':{'exitCode':1,'finishedAt':'2025-01-01T11:40:00Z'}}}]}");
        assertEquals("2/2", ready(pod));
        assertEquals("Running", status(pod));
        assertEquals("4 (2m ago)", restarts(pod));
    }

    @Test
    void aSidecarNotYetStartedHoldsInitialization() {
        String spec =
                "{'initContainers':[{'name':'proxy','restartPolicy':'Always'}],'containers':[{'name':'app'}]}";
        JsonNode pod =
                pod(
                        spec,
                        "{'phase':'Pending','initContainerStatuses':["
                                + "{'name':'proxy','started':false,'ready':false,'state':{'running':{}}}]}");
        assertEquals("0/2", ready(pod));
        assertEquals("Init:0/1", status(pod));
    }

    // --- deletion and scheduling
    // -------------------------------------------------------------------

    @Test
    void aDeletedPodIsTerminatingUnlessItsPhaseIsTerminal() {
        String running =
                "{'phase':'Running','containerStatuses':[{'name':'app'," + RUNNING_READY + "}]}";
        JsonNode deleted =
                json(
                        "{'metadata':{'name':'web','deletionTimestamp':'2025-01-01T11:59:00Z'},"
                                + "'spec':"
                                + ONE
                                + ",'status':"
                                + running
                                + "}");
        assertEquals("Terminating", status(deleted));
        JsonNode succeeded =
                json(
                        "{'metadata':{'name':'web','deletionTimestamp':'2025-01-01T11:59:00Z'},"
                                + "'spec':"
                                + ONE
                                + ",'status':{'phase':'Succeeded','containerStatuses':[{'name':'app',"
                                + "'state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}}");
        assertEquals("Completed", status(succeeded));
    }

    @Test
    void aDeletedPodOnALostNodeIsUnknown() {
        JsonNode pod =
                json(
                        "{'metadata':{'name':'web','deletionTimestamp':'2025-01-01T11:59:00Z'},"
                                + "'spec':"
                                + ONE
                                + ",'status':{'phase':'Running','reason':'NodeLost'}}");
        assertEquals("Unknown", status(pod));
    }

    @Test
    void aSchedulingGatedPodSaysSo() {
        JsonNode pod =
                pod(
                        ONE,
                        "{'phase':'Pending','conditions':[{'type':'PodScheduled','status':'False',"
                                + "'reason':'SchedulingGated'}]}");
        assertEquals("SchedulingGated", status(pod));
    }

    // --- wide cells
    // --------------------------------------------------------------------------------

    @Test
    void wideCellsShowTheFirstPodIPTheNodesAndTheReadinessGates() {
        String spec =
                "{'nodeName':'node-1','containers':[{'name':'app'}],"
                        + "'readinessGates':[{'conditionType':'example.com/lb'},{'conditionType':'example.com/dns'}]}";
        JsonNode pod =
                pod(
                        spec,
                        "{'phase':'Running','nominatedNodeName':'node-2',"
                                + "'podIPs':[{'ip':'fd00::7'},{'ip':'10.1.0.7'}],"
                                + "'conditions':[{'type':'example.com/lb','status':'True'},{'type':'example.com/dns','status':'False'},"
                                + "{'type':'example.com/dns','status':'True'}]}");
        assertEquals(List.of("fd00::7", "node-1", "node-2", "1/2"), cells(pod).subList(5, 9));
    }

    @Test
    void podIPWinsOverPodIPs() {
        JsonNode pod = pod(ONE, "{'podIP':'10.1.0.7','podIPs':[{'ip':'10.9.9.9'}]}");
        assertEquals("10.1.0.7", cells(pod).get(5));
    }

    @Test
    void oddlyTypedFieldsReadAsUnset() {
        JsonNode pod =
                json(
                        "{'metadata':{'name':7,'creationTimestamp':'yesterday'},'spec':{'containers':'app',"
                                + "'initContainers':[5]},'status':{'phase':3,'containerStatuses':[{'restartCount':'x','state':[],"
                                + "'lastState':{'terminated':{'finishedAt':12}}}],'conditions':{}}}");
        List<Object> cells = assertDoesNotThrow(() -> cells(pod));
        assertEquals(
                List.of("", "0/0", "", "0", "<unknown>", "<none>", "<none>", "<none>", "<none>"),
                cells);
        assertEquals(9, assertDoesNotThrow(() -> cells(json("{}"))).size());
    }
}
