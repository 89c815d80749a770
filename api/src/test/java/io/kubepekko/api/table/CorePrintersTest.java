package io.kubepekko.api.table;

import static io.kubepekko.api.table.CorePodPrinterTest.json;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.definition.BuiltinDefinitions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Node, Service, Endpoints, Event and Namespace printers: kube's columns and cell derivations.
 */
class CorePrintersTest {

    private static final Instant NOW = CorePodPrinterTest.NOW;
    private static final String META =
            "'metadata':{'name':'x','creationTimestamp':'2024-12-30T12:00:00Z'}";

    private static List<String> names(TablePrinter printer) {
        return printer.columns().stream().map(Column::name).toList();
    }

    private static List<Integer> priorities(TablePrinter printer) {
        return printer.columns().stream().map(Column::priority).toList();
    }

    @Test
    void everyCoreKindHasItsOwnPrinter() {
        assertSame(PodPrinter.INSTANCE, BuiltinDefinitions.printer("", "Pod"));
        assertSame(NodePrinter.INSTANCE, BuiltinDefinitions.printer(null, "Node"));
        assertSame(ServicePrinter.INSTANCE, BuiltinDefinitions.printer("", "Service"));
        assertSame(EndpointsPrinter.INSTANCE, BuiltinDefinitions.printer("", "Endpoints"));
        assertSame(EventPrinter.INSTANCE, BuiltinDefinitions.printer("", "Event"));
        assertSame(NamespacePrinter.INSTANCE, BuiltinDefinitions.printer("", "Namespace"));
    }

    @Test
    void printersNeverThrowOnEmptyOrOddObjects() {
        JsonNode odd =
                json(
                        "{'metadata':[],'spec':'x','status':{'conditions':7,'addresses':[1],'nodeInfo':[]},"
                                + "'subsets':[{'addresses':'a','ports':[{}]}],'involvedObject':3,'series':[]}");
        for (String kind : List.of("Pod", "Node", "Service", "Endpoints", "Event", "Namespace")) {
            TablePrinter printer = BuiltinDefinitions.printer("", kind);
            for (JsonNode object : List.of(json("{}"), odd)) {
                List<Object> cells = assertDoesNotThrow(() -> printer.cells(object, NOW), kind);
                assertEquals(printer.columns().size(), cells.size(), kind);
            }
        }
    }

    // --- Node
    // --------------------------------------------------------------------------------------

    @Test
    void nodeColumns() {
        TablePrinter nodes = NodePrinter.INSTANCE;
        assertEquals(
                List.of(
                        "Name",
                        "Status",
                        "Roles",
                        "Age",
                        "Version",
                        "Internal-IP",
                        "External-IP",
                        "OS-Image",
                        "Kernel-Version",
                        "Container-Runtime"),
                names(nodes));
        assertEquals(List.of(0, 0, 0, 0, 0, 1, 1, 1, 1, 1), priorities(nodes));
        assertEquals(
                new Column("Status", "string", "", "The status of the node", 0),
                nodes.columns().get(1));
        assertEquals(
                new Column("Version", "string", "", "Kubelet Version reported by the node.", 0),
                nodes.columns().get(4));
    }

    @Test
    void readyCordonedNodeWithRolesAndAddresses() {
        JsonNode node =
                json(
                        "{'metadata':{'name':'node-1','creationTimestamp':'2024-12-30T12:00:00Z',"
                                + "'labels':{'node-role.kubernetes.io/worker':'','node-role.kubernetes.io/control-plane':'',"
                                + "'node-role.kubernetes.io/':'x','kubernetes.io/role':'infra','kubernetes.io/hostname':'node-1'}},"
                                + "'spec':{'unschedulable':true},"
                                + "'status':{'conditions':[{'type':'MemoryPressure','status':'False'},{'type':'Ready','status':'True'}],"
                                + "'addresses':[{'type':'Hostname','address':'node-1'},{'type':'InternalIP','address':'10.0.0.4'},"
                                + "{'type':'InternalIP','address':'10.0.0.5'},{'type':'ExternalIP','address':'203.0.113.9'}],"
                                + "'nodeInfo':{'kubeletVersion':'v1.35.0','osImage':'Ubuntu 24.04 LTS','kernelVersion':'6.8.0',"
                                + "'containerRuntimeVersion':'containerd://2.0.1'}}}");
        assertEquals(
                List.of(
                        "node-1",
                        "Ready,SchedulingDisabled",
                        "control-plane,infra,worker",
                        "2d",
                        "v1.35.0",
                        "10.0.0.4",
                        "203.0.113.9",
                        "Ubuntu 24.04 LTS",
                        "6.8.0",
                        "containerd://2.0.1"),
                NodePrinter.INSTANCE.cells(node, NOW));
    }

    @Test
    void nodeWithoutReadyConditionIsUnknownAndBareFieldsShowPlaceholders() {
        JsonNode node =
                json(
                        "{"
                                + META
                                + ",'status':{'conditions':[{'type':'DiskPressure','status':'False'}]}}");
        assertEquals(
                List.of(
                        "x",
                        "Unknown",
                        "<none>",
                        "2d",
                        "",
                        "<none>",
                        "<none>",
                        "<unknown>",
                        "<unknown>",
                        "<unknown>"),
                NodePrinter.INSTANCE.cells(node, NOW));
    }

    @Test
    void nodeReadyFalseOrUnknownIsNotReady() {
        JsonNode notReady =
                json(
                        "{"
                                + META
                                + ",'status':{'conditions':[{'type':'Ready','status':'Unknown'}]}}");
        assertEquals("NotReady", NodePrinter.INSTANCE.cells(notReady, NOW).get(1));
    }

    // --- Service
    // -----------------------------------------------------------------------------------

    @Test
    void serviceColumns() {
        TablePrinter services = ServicePrinter.INSTANCE;
        assertEquals(
                List.of("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"),
                names(services));
        assertEquals(List.of(0, 0, 0, 0, 0, 0, 1), priorities(services));
        assertEquals(
                new Column(
                        "Port(s)",
                        "string",
                        "",
                        "The list of ports that are exposed by this service. More "
                                + "info: https://kubernetes.io/docs/concepts/services-networking/service/#virtual-ips-and-service-proxies",
                        0),
                services.columns().get(4));
    }

    private static List<Object> service(String spec, String status) {
        return ServicePrinter.INSTANCE.cells(
                json("{" + META + ",'spec':" + spec + ",'status':" + status + "}"), NOW);
    }

    @Test
    void clusterIPServiceWithSelector() {
        assertEquals(
                List.of(
                        "x",
                        "ClusterIP",
                        "10.96.0.10",
                        "<none>",
                        "53/UDP,53/TCP,9153/TCP",
                        "2d",
                        "k8s-app=kube-dns,tier=control"),
                service(
                        "{'type':'ClusterIP','clusterIP':'10.96.0.10','clusterIPs':['10.96.0.10','fd00::a'],"
                                + "'selector':{'tier':'control','k8s-app':'kube-dns'},'ports':[{'port':53,'protocol':'UDP'},"
                                + "{'port':53,'protocol':'TCP'},{'port':9153,'protocol':'TCP'}]}",
                        "{}"));
    }

    @Test
    void headlessServiceWithoutPortsOrSelector() {
        assertEquals(
                List.of("x", "ClusterIP", "None", "<none>", "<none>", "2d", "<none>"),
                service("{'type':'ClusterIP','clusterIP':'None'}", "{}"));
    }

    @Test
    void nodePortServiceShowsNodePortsAndExternalIPs() {
        List<Object> cells =
                service(
                        "{'type':'NodePort','clusterIPs':['10.96.3.4'],'externalIPs':['198.51.100.1',"
                                + "'198.51.100.2'],'ports':[{'port':80,'nodePort':30080,'protocol':'TCP'}]}",
                        "{}");
        assertEquals(
                List.of("10.96.3.4", "198.51.100.1,198.51.100.2", "80:30080/TCP"),
                cells.subList(2, 5));
    }

    @Test
    void loadBalancerIsPendingUntilItHasIngress() {
        assertEquals(
                "<pending>",
                service("{'type':'LoadBalancer','clusterIP':'10.96.3.4'}", "{}").get(3));
        assertEquals(
                "<pending>",
                service("{'type':'LoadBalancer'}", "{'loadBalancer':{'ingress':[{}]}}").get(3));
    }

    @Test
    void loadBalancerIngressIsSortedDistinctThenExternalIPsAndNeverClipped() {
        String status =
                "{'loadBalancer':{'ingress':[{'ip':'203.0.113.20'},"
                        + "{'hostname':'a-very-long-load-balancer-name.elb.example.com'},{'ip':'203.0.113.10','hostname':'x'},"
                        + "{'ip':'203.0.113.20'}]}}";
        assertEquals(
                "203.0.113.10,203.0.113.20,a-very-long-load-balancer-name.elb.example.com",
                service("{'type':'LoadBalancer'}", status).get(3));
        assertEquals(
                "203.0.113.10,203.0.113.20,a-very-long-load-balancer-name.elb.example.com,198.51.100.1",
                service("{'type':'LoadBalancer','externalIPs':['198.51.100.1']}", status).get(3));
        assertEquals(
                "198.51.100.1",
                service("{'type':'LoadBalancer','externalIPs':['198.51.100.1']}", "{}").get(3));
    }

    @Test
    void externalNameServiceShowsTheName() {
        assertEquals(
                List.of("x", "ExternalName", "<none>", "db.example.com", "<none>", "2d", "<none>"),
                service("{'type':'ExternalName','externalName':'db.example.com'}", "{}"));
    }

    @Test
    void serviceOfUnknownTypeAndPortWithoutProtocol() {
        List<Object> cells = service("{'ports':[{'port':8080}]}", "{}");
        assertEquals(List.of("", "<none>", "<unknown>", "8080/"), cells.subList(1, 5));
    }

    // --- Endpoints
    // ---------------------------------------------------------------------------------

    @Test
    void endpointsColumns() {
        assertEquals(List.of("Name", "Endpoints", "Age"), names(EndpointsPrinter.INSTANCE));
        assertEquals(List.of(0, 0, 0), priorities(EndpointsPrinter.INSTANCE));
        assertEquals(
                CoreDescriptions.ENDPOINTS_SUBSETS,
                EndpointsPrinter.INSTANCE.columns().get(1).description());
    }

    private static String endpoints(String subsets) {
        return (String)
                EndpointsPrinter.INSTANCE
                        .cells(json("{" + META + ",'subsets':" + subsets + "}"), NOW)
                        .get(1);
    }

    @Test
    void endpointsListIpPortPairsAndSumUpBeyondThree() {
        assertEquals("<none>", endpoints("[]"));
        assertEquals(
                "10.1.0.1:8080,10.1.0.2:8080",
                endpoints(
                        "[{'addresses':[{'ip':'10.1.0.1'},{'ip':'10.1.0.2'}],"
                                + "'notReadyAddresses':[{'ip':'10.1.0.3'}],'ports':[{'name':'http','port':8080}]}]"));
        assertEquals(
                "10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 2 more...",
                endpoints(
                        "[{'addresses':[{'ip':'10.1.0.1'},"
                                + "{'ip':'10.1.0.2'}],'ports':[{'port':80},{'port':443}]},"
                                + "{'addresses':[{'ip':'10.1.0.9'}],'ports':[{'port':9090}]}]"));
    }

    @Test
    void endpointsOfHeadlessServicesAndIPv6() {
        assertEquals(
                "10.1.0.1,10.1.0.2",
                endpoints("[{'addresses':[{'ip':'10.1.0.1'},{'ip':'10.1.0.2'}]}]"));
        assertEquals(
                "[fd00::1]:80",
                endpoints("[{'addresses':[{'ip':'fd00::1'}],'ports':[{'port':80}]}]"));
        assertEquals(
                "", endpoints("[{'notReadyAddresses':[{'ip':'10.1.0.1'}],'ports':[{'port':80}]}]"));
    }

    @Test
    void endpointsCells() {
        assertEquals(
                List.of("x", "<none>", "2d"),
                EndpointsPrinter.INSTANCE.cells(json("{" + META + "}"), NOW));
    }

    // --- Event
    // -------------------------------------------------------------------------------------

    @Test
    void eventColumns() {
        TablePrinter events = EventPrinter.INSTANCE;
        assertEquals(
                List.of(
                        "Last Seen",
                        "Type",
                        "Reason",
                        "Object",
                        "Subobject",
                        "Source",
                        "Message",
                        "First Seen",
                        "Count",
                        "Name"),
                names(events));
        assertEquals(List.of(0, 0, 0, 0, 1, 1, 0, 1, 1, 1), priorities(events));
        assertEquals(
                new Column(
                        "Count", "string", "", "The number of times this event has occurred.", 1),
                events.columns().get(8));
        assertEquals(
                new Column("Name", "string", "name", Descriptions.NAME, 1),
                events.columns().get(9));
        assertEquals("The object that this event is about.", events.columns().get(3).description());
    }

    @Test
    void classicEvent() {
        JsonNode event =
                json(
                        "{'metadata':{'name':'web.17f3a','namespace':'default'},"
                                + "'involvedObject':{'kind':'Pod','name':'web','fieldPath':'spec.containers{app}'},"
                                + "'reason':'BackOff','message':'  Back-off restarting failed container\\n','type':'Warning',"
                                + "'source':{'component':'kubelet','host':'node-1'},'count':12,"
                                + "'firstTimestamp':'2025-01-01T11:00:00Z','lastTimestamp':'2025-01-01T11:59:30Z'}");
        assertEquals(
                List.of(
                        "30s",
                        "Warning",
                        "BackOff",
                        "pod/web",
                        "spec.containers{app}",
                        "kubelet, node-1",
                        "Back-off restarting failed container",
                        "60m",
                        12L,
                        "web.17f3a"),
                EventPrinter.INSTANCE.cells(event, NOW));
    }

    @Test
    void newApiEventFallsBackToEventTimeSeriesAndReportingController() {
        JsonNode singleton =
                json(
                        "{'metadata':{'name':'e1'},'involvedObject':{'kind':'Node'},"
                                + "'eventTime':'2025-01-01T11:57:00.123456Z','reportingComponent':'scheduler',"
                                + "'reportingInstance':'scheduler-abc','type':'Normal','reason':'Scheduled'}");
        List<Object> cells = EventPrinter.INSTANCE.cells(singleton, NOW);
        assertEquals(
                List.of(
                        "2m59s",
                        "Normal",
                        "Scheduled",
                        "node",
                        "",
                        "scheduler, scheduler-abc",
                        "",
                        "2m59s",
                        1L,
                        "e1"),
                cells);

        JsonNode series =
                json(
                        "{'metadata':{'name':'e2'},'involvedObject':{'kind':'Pod','name':'web'},"
                                + "'eventTime':'2025-01-01T10:00:00.000000Z','source':{'component':'kubelet'},"
                                + "'series':{'count':5,'lastObservedTime':'2025-01-01T11:59:55.000000Z'},'count':2}");
        cells = EventPrinter.INSTANCE.cells(series, NOW);
        assertEquals(
                List.of("5s", "kubelet", "120m", 5L),
                List.of(cells.get(0), cells.get(5), cells.get(7), cells.get(8)));
    }

    @Test
    void eventWithoutAnyTimesIsUnknown() {
        List<Object> cells = EventPrinter.INSTANCE.cells(json("{'series':{}}"), NOW);
        assertEquals(List.of("<unknown>", "", "", "", "", "", "", "<unknown>", 0L, ""), cells);
    }

    @Test
    void goTrimSpaceTrimsUnicodeSpaceButNotOtherCharacters() {
        assertEquals("a b", CoreCells.trimSpace("\u00A0\u2003\t a b \u0085\u3000"));
        assertEquals(
                "\u200Ba",
                CoreCells.trimSpace("\u200Ba")); // a zero-width space is no white space in Go
    }

    // --- Namespace
    // ---------------------------------------------------------------------------------

    @Test
    void namespaceColumnsAndCells() {
        assertEquals(List.of("Name", "Status", "Age"), names(NamespacePrinter.INSTANCE));
        assertEquals(
                new Column("Status", "string", "", "The status of the namespace", 0),
                NamespacePrinter.INSTANCE.columns().get(1));
        assertEquals(
                List.of("x", "Terminating", "2d"),
                NamespacePrinter.INSTANCE.cells(
                        json("{" + META + ",'status':{'phase':'Terminating'}}"), NOW));
        assertEquals(
                List.of("", "", "<unknown>"), NamespacePrinter.INSTANCE.cells(json("{}"), NOW));
    }
}
