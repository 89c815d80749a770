package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static io.kubepekko.http.TestApiServer.rv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.Ipv4;
import io.kubepekko.api.alloc.Ipv4Cidr;
import io.kubepekko.api.alloc.PortRange;
import io.kubepekko.http.server.ServiceRanges;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Service cluster IP and node port allocation over HTTP, as kube-apiserver 1.35 answers: values in
 * range and unique across namespaces (also under concurrent creates and across a restart),
 * requested values honoured or refused with Kubernetes' messages, releases on delete and type
 * changes, and dry runs that leave nothing behind.
 */
class ServiceAllocationIT {

    private static final String RANGE = "10.96.0.0/16";
    private static final Ipv4Cidr CIDR = Ipv4Cidr.parse(RANGE);
    private static final AtomicInteger NAMES = new AtomicInteger();

    @RegisterExtension
    static final TestApiServer api =
            TestApiServer.perClass(
                    s -> s.withServices(new ServiceRanges(CIDR, PortRange.DEFAULT_NODE_PORTS)));

    private static String unique(String prefix) {
        return prefix + "-" + NAMES.incrementAndGet();
    }

    private static String services(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/services";
    }

    private static String service(String name, String spec) {
        return json(
                "{'apiVersion':'v1','kind':'Service','metadata':{'name':'"
                        + name
                        + "'},'spec':"
                        + spec
                        + "}");
    }

    /** A new namespace, so tests sharing the server stay independent. */
    private static String namespace() {
        String ns = unique("svc-ns");
        api.create(
                "/api/v1/namespaces",
                json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + ns + "'}}"));
        return ns;
    }

    /** An address of the range no other test asks for. */
    private static String freshIp() {
        return Ipv4.format(CIDR.network() + 1000 + NAMES.incrementAndGet());
    }

    private static ObjectNode create(String ns, String name, String spec) {
        return api.create(services(ns), service(name, spec));
    }

    private static void assertInRange(String ip) {
        long address = Ipv4.parse(ip);
        assertTrue(
                address > CIDR.firstUsable() && address <= CIDR.lastUsable(),
                () ->
                        ip
                                + " is a usable address of "
                                + RANGE
                                + " other than the kubernetes Service's");
    }

    private static int nodePort(ObjectNode svc, int port) {
        return svc.path("spec").path("ports").path(port).path("nodePort").asInt();
    }

    @Nested
    class Create {
        @Test
        void aClusterIpServiceGetsAnAddressOfTheRangeAsSingleStackIpv4() {
            ObjectNode svc = create(namespace(), "web", "{'ports':[{'port':80}]}");
            String ip = svc.path("spec").path("clusterIP").asText();
            assertInRange(ip);
            assertEquals(json("['" + ip + "']"), svc.path("spec").path("clusterIPs").toString());
            assertEquals("[\"IPv4\"]", svc.path("spec").path("ipFamilies").toString());
            assertEquals("SingleStack", svc.path("spec").path("ipFamilyPolicy").asText());
            assertEquals(
                    ip,
                    api.get(services(svc.path("metadata").path("namespace").asText()) + "/web")
                            .json()
                            .path("spec")
                            .path("clusterIP")
                            .asText(),
                    "stored as answered");
        }

        @Test
        void aRequestedFreeAddressIsHonoured() {
            String ip = freshIp();
            ObjectNode svc =
                    create(
                            namespace(),
                            "pinned",
                            "{'clusterIP':'" + ip + "','ports':[{'port':80}]}");
            assertEquals(ip, svc.path("spec").path("clusterIP").asText());
            assertEquals(json("['" + ip + "']"), svc.path("spec").path("clusterIPs").toString());
        }

        @Test
        void anAddressHeldInAnotherNamespaceIsAlreadyAllocated() {
            String ip = freshIp();
            create(namespace(), "first", "{'clusterIP':'" + ip + "','ports':[{'port':80}]}");
            String ns = namespace();
            api.post(
                            services(ns),
                            service("second", "{'clusterIP':'" + ip + "','ports':[{'port':80}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"second\" is invalid: spec.clusterIPs: Invalid value: [\""
                                    + ip
                                    + "\"]: failed to allocate IP "
                                    + ip
                                    + ": provided IP is already allocated");
            api.get(services(ns) + "/second").assertCode(404);
        }

        @Test
        void theKubernetesServiceAddressIsAlreadyAllocated() {
            api.post(
                            services(namespace()),
                            service("kube", "{'clusterIP':'10.96.0.1','ports':[{'port':80}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"kube\" is invalid: spec.clusterIPs: Invalid value: "
                                    + "[\"10.96.0.1\"]: failed to allocate IP 10.96.0.1: provided IP is already allocated");
        }

        @Test
        void addressesOutsideTheRangeAreRefusedWithKubernetesWords() {
            String ns = namespace();
            api.post(
                            services(ns),
                            service("far", "{'clusterIP':'192.168.1.10','ports':[{'port':80}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"far\" is invalid: spec.clusterIPs: Invalid value: "
                                    + "[\"192.168.1.10\"]: failed to allocate IP 192.168.1.10: the provided network does not "
                                    + "match the current range");
            api.post(
                            services(ns),
                            service("edge", "{'clusterIP':'10.96.255.255','ports':[{'port':80}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"edge\" is invalid: spec.clusterIPs: Invalid value: "
                                    + "[\"10.96.255.255\"]: failed to allocate IP 10.96.255.255: the provided IP (10.96.255.255) "
                                    + "is not in the valid range. The range of valid IPs is "
                                    + RANGE);
        }

        @Test
        void headlessAndExternalNameServicesGetNoAddress() {
            String ns = namespace();
            ObjectNode headless =
                    create(
                            ns,
                            "headless",
                            "{'clusterIP':'None','selector':{'app':'db'},'ports':[{'port':5432}]}");
            assertEquals("None", headless.path("spec").path("clusterIP").asText());
            assertEquals("[\"None\"]", headless.path("spec").path("clusterIPs").toString());
            ObjectNode external =
                    create(
                            ns,
                            "external",
                            "{'type':'ExternalName','externalName':'db.example.com'}");
            assertTrue(external.path("spec").path("clusterIP").isMissingNode(), external::toString);
            assertTrue(
                    external.path("spec").path("ipFamilies").isMissingNode(), external::toString);
        }

        @Test
        void aRefusedCreateLeavesNoAllocationBehind() {
            String ns = namespace();
            ObjectNode holder = create(ns, "holder", "{'type':'NodePort','ports':[{'port':80}]}");
            String ip = freshIp();
            int taken = nodePort(holder, 0);
            api.post(
                            services(ns),
                            service(
                                    "greedy",
                                    "{'clusterIP':'"
                                            + ip
                                            + "','type':'NodePort',"
                                            + "'ports':[{'port':80,'nodePort':"
                                            + taken
                                            + "}]}"))
                    .assertCode(422);
            ObjectNode later =
                    create(
                            namespace(),
                            "later",
                            "{'clusterIP':'" + ip + "','ports':[{'port':80}]}");
            assertEquals(
                    ip,
                    later.path("spec").path("clusterIP").asText(),
                    "the refused create kept nothing");
        }

        @Test
        void concurrentCreatesAcrossNamespacesGetDistinctAddresses() throws Exception {
            List<String> namespaces = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                namespaces.add(namespace());
            }
            ExecutorService pool = Executors.newFixedThreadPool(40);
            try {
                List<Future<Response>> creates = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    String ns = namespaces.get(i % namespaces.size());
                    String name = "svc-" + i;
                    creates.add(
                            pool.submit(
                                    () ->
                                            api.post(
                                                    services(ns),
                                                    service(name, "{'ports':[{'port':80}]}"))));
                }
                Set<String> ips = new HashSet<>();
                for (Future<Response> f : creates) {
                    ObjectNode svc = f.get(60, TimeUnit.SECONDS).assertCode(201).json();
                    String ip = svc.path("spec").path("clusterIP").asText();
                    assertInRange(ip);
                    assertTrue(ips.add(ip), () -> ip + " was handed out twice");
                }
                assertEquals(200, ips.size());
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @Nested
    class NodePorts {
        @Test
        void nodePortServicesGetDistinctPortsOfTheRange() {
            String ns = namespace();
            ObjectNode a =
                    create(
                            ns,
                            "a",
                            "{'type':'NodePort','ports':[{'name':'http','port':80},{'name':'https','port':443}]}");
            ObjectNode b =
                    create(namespace(), "b", "{'type':'LoadBalancer','ports':[{'port':80}]}");
            Set<Integer> ports =
                    new HashSet<>(List.of(nodePort(a, 0), nodePort(a, 1), nodePort(b, 0)));
            assertEquals(3, ports.size(), () -> "distinct: " + ports);
            ports.forEach(
                    p -> assertTrue(p >= 30000 && p <= 32767, () -> p + " in the node port range"));
            assertInRange(a.path("spec").path("clusterIP").asText());
        }

        // Requested node ports in these tests (30010-30013) sit in the range's static band
        // (KEP-3668),
        // which automatic allocation takes last: another test's Service cannot have been given one
        // first.
        @Test
        void aRequestedPortIsHonouredOnceAndThenAlreadyAllocated() {
            ObjectNode first =
                    create(
                            namespace(),
                            "first",
                            "{'type':'NodePort','ports':[{'port':80,'nodePort':30013}]}");
            assertEquals(30013, nodePort(first, 0));
            api.post(
                            services(namespace()),
                            service(
                                    "second",
                                    "{'type':'NodePort','ports':[{'port':8080,'nodePort':30013}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"second\" is invalid: spec.ports[0].nodePort: Invalid value: "
                                    + "30013: provided port is already allocated");
        }

        @Test
        void aPortOutsideTheRangeIsRefused() {
            api.post(
                            services(namespace()),
                            service(
                                    "low",
                                    "{'type':'NodePort','ports':[{'port':80,'nodePort':8080}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"low\" is invalid: spec.ports[0].nodePort: Invalid value: "
                                    + "8080: provided port is not in the valid range. The range of valid ports is 30000-32767");
        }

        @Test
        void tcpAndUdpOfOnePortShareOneNodePort() {
            ObjectNode dns =
                    create(
                            namespace(),
                            "dns",
                            "{'type':'NodePort','ports':[{'name':'udp','port':53,'protocol':'UDP'},"
                                    + "{'name':'tcp','port':53,'protocol':'TCP'}]}");
            assertEquals(nodePort(dns, 0), nodePort(dns, 1));
        }
    }

    @Nested
    class Updates {
        @Test
        void theClusterIpMayNotChangeOnceSet() {
            String ns = namespace();
            ObjectNode svc = create(ns, "web", "{'ports':[{'port':80}]}");
            String other = freshIp();
            api.patch(
                            services(ns) + "/web",
                            "application/merge-patch+json",
                            json(
                                    "{'spec':{'clusterIP':'"
                                            + other
                                            + "','clusterIPs':['"
                                            + other
                                            + "']}}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"web\" is invalid: spec.clusterIPs[0]: Invalid value: [\""
                                    + other
                                    + "\"]: may not change once set");
            assertEquals(
                    svc.path("spec").path("clusterIP"),
                    api.get(services(ns) + "/web").json().path("spec").path("clusterIP"));
        }

        @Test
        void aPutWithoutTheAllocatedValuesKeepsThem() {
            String ns = namespace();
            ObjectNode svc = create(ns, "web", "{'type':'NodePort','ports':[{'port':80}]}");
            ObjectNode replaced =
                    api.put(
                                    services(ns) + "/web",
                                    service("web", "{'type':'NodePort','ports':[{'port':80}]}"))
                            .assertCode(200)
                            .json();
            assertEquals(
                    svc.path("spec").path("clusterIP"), replaced.path("spec").path("clusterIP"));
            assertEquals(nodePort(svc, 0), nodePort(replaced, 0));
            assertEquals(rv(svc), rv(replaced), "nothing changed, so nothing was written");
        }

        @Test
        void clusterIpToNodePortAllocatesAndBackReleases() {
            String ns = namespace();
            create(ns, "web", "{'ports':[{'port':80}]}");
            ObjectNode nodePort =
                    api.patch(
                                    services(ns) + "/web",
                                    "application/merge-patch+json",
                                    json("{'spec':{'type':'NodePort'}}"))
                            .assertCode(200)
                            .json();
            int port = nodePort(nodePort, 0);
            assertTrue(port >= 30000 && port <= 32767, nodePort::toString);
            ObjectNode back =
                    api.patch(
                                    services(ns) + "/web",
                                    "application/merge-patch+json",
                                    json(
                                            "{'spec':{'type':'ClusterIP','externalTrafficPolicy':null}}"))
                            .assertCode(200)
                            .json();
            assertTrue(
                    back.path("spec").path("ports").path(0).path("nodePort").isMissingNode(),
                    back::toString);
            ObjectNode taker =
                    create(
                            namespace(),
                            "taker",
                            "{'type':'NodePort','ports':[{'port':80,'nodePort':" + port + "}]}");
            assertEquals(port, nodePort(taker, 0), "the released node port is free again");
        }

        @Test
        void clusterIpToExternalNameReleasesTheAddress() {
            String ns = namespace();
            String ip = freshIp();
            create(ns, "web", "{'clusterIP':'" + ip + "','ports':[{'port':80}]}");
            ObjectNode external =
                    api.patch(
                                    services(ns) + "/web",
                                    "application/merge-patch+json",
                                    json(
                                            "{'spec':{'type':'ExternalName','externalName':'web.example.com'}}"))
                            .assertCode(200)
                            .json();
            assertTrue(external.path("spec").path("clusterIP").isMissingNode(), external::toString);
            ObjectNode taker =
                    create(
                            namespace(),
                            "taker",
                            "{'clusterIP':'" + ip + "','ports':[{'port':80}]}");
            assertEquals(ip, taker.path("spec").path("clusterIP").asText());
        }

        @Test
        void deleteReleasesAddressAndPorts() {
            String ns = namespace();
            String ip = freshIp();
            create(
                    ns,
                    "web",
                    "{'clusterIP':'"
                            + ip
                            + "','type':'NodePort','ports':[{'port':80,'nodePort':30012}]}");
            api.delete(services(ns) + "/web").assertCode(200);
            ObjectNode again =
                    create(
                            namespace(),
                            "again",
                            "{'clusterIP':'"
                                    + ip
                                    + "','type':'NodePort',"
                                    + "'ports':[{'port':80,'nodePort':30012}]}");
            assertEquals(ip, again.path("spec").path("clusterIP").asText());
            assertEquals(30012, nodePort(again, 0));
        }

        @Test
        void aTerminatingServiceKeepsItsAddressUntilItIsGone() {
            String ns = namespace();
            String ip = freshIp();
            api.create(
                    services(ns),
                    json(
                            "{'apiVersion':'v1','kind':'Service','metadata':{'name':'web',"
                                    + "'finalizers':['example.com/hold']},'spec':{'clusterIP':'"
                                    + ip
                                    + "','ports':[{'port':80}]}}"));
            api.delete(services(ns) + "/web").assertCode(200);
            String other = namespace();
            api.post(
                            services(other),
                            service("taker", "{'clusterIP':'" + ip + "','ports':[{'port':80}]}"))
                    .assertCode(422);
            api.patch(
                            services(ns) + "/web",
                            "application/merge-patch+json",
                            json("{'metadata':{'finalizers':null}}"))
                    .assertCode(200);
            assertEquals(
                    ip,
                    create(other, "taker", "{'clusterIP':'" + ip + "','ports':[{'port':80}]}")
                            .path("spec")
                            .path("clusterIP")
                            .asText());
        }
    }

    @Nested
    class DryRun {
        @Test
        void aDryRunShowsKubernetesPlaceholdersAndStoresNothing() {
            String ns = namespace();
            ObjectNode dry =
                    api.post(
                                    services(ns) + "?dryRun=All",
                                    service("web", "{'type':'NodePort','ports':[{'port':80}]}"))
                            .assertCode(201)
                            .json();
            assertEquals(
                    "10.96.0.0",
                    dry.path("spec").path("clusterIP").asText(),
                    "kube-apiserver's dry-run allocator shows the network address");
            assertEquals(32769, nodePort(dry, 0));
            api.get(services(ns) + "/web").assertCode(404);
        }

        @Test
        void aDryRunTakesNothingAndSendsNoEvent() {
            String ns = namespace();
            String ip = freshIp();
            String list = services(ns);
            long at =
                    Long.parseLong(
                            api.get(list).json().path("metadata").path("resourceVersion").asText());
            try (WatchClient watch =
                    WatchClient.open(api.url(), list + "?watch=true&resourceVersion=" + at)) {
                ObjectNode dry =
                        api.post(
                                        list + "?dryRun=All",
                                        service(
                                                "dry",
                                                "{'clusterIP':'"
                                                        + ip
                                                        + "','type':'NodePort',"
                                                        + "'ports':[{'port':80,'nodePort':30011}]}"))
                                .assertCode(201)
                                .json();
                assertEquals(ip, dry.path("spec").path("clusterIP").asText());
                ObjectNode real =
                        create(
                                ns,
                                "real",
                                "{'clusterIP':'"
                                        + ip
                                        + "','type':'NodePort',"
                                        + "'ports':[{'port':80,'nodePort':30011}]}");
                assertEquals(
                        ip,
                        real.path("spec").path("clusterIP").asText(),
                        "the dry run took nothing");
                assertEquals(
                        "ADDED real@" + rv(real),
                        WatchClient.describe(watch.next(Duration.ofSeconds(10))),
                        "the dry run sent no event");
            }
        }

        @Test
        void aDryRunStillRefusesATakenNodePort() {
            create(
                    namespace(),
                    "holder",
                    "{'type':'NodePort','ports':[{'port':80,'nodePort':30010}]}");
            api.post(
                            services(namespace()) + "?dryRun=All",
                            service(
                                    "dry",
                                    "{'type':'NodePort','ports':[{'port':80,"
                                            + "'nodePort':30010}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"dry\" is invalid: "
                                    + "spec.ports[0].nodePort: Invalid value: 30010: provided port is already allocated");
        }
    }

    @Nested
    class Restart {
        @Test
        void allocationsSurviveARestart() throws Exception {
            String ns = namespace();
            ObjectNode svc = create(ns, "kept", "{'type':'NodePort','ports':[{'port':80}]}");
            String ip = svc.path("spec").path("clusterIP").asText();
            int port = nodePort(svc, 0);
            api.restart();
            String other = namespace();
            api.post(
                            services(other),
                            service("thief", "{'clusterIP':'" + ip + "','ports':[{'port':80}]}"))
                    .assertStatus(
                            422,
                            "Invalid",
                            "Service \"thief\" is invalid: spec.clusterIPs: Invalid value: [\""
                                    + ip
                                    + "\"]: failed to allocate IP "
                                    + ip
                                    + ": provided IP is already allocated");
            api.post(
                            services(other),
                            service(
                                    "thief2",
                                    "{'type':'NodePort','ports':[{'port':80,'nodePort':"
                                            + port
                                            + "}]}"))
                    .assertCode(422);
            ObjectNode fresh = create(other, "fresh", "{'ports':[{'port':80}]}");
            assertNotEquals(ip, fresh.path("spec").path("clusterIP").asText());
            assertEquals(
                    ip,
                    api.get(services(ns) + "/kept").json().path("spec").path("clusterIP").asText());
        }
    }

    /**
     * Small ranges: the Service that finds no free value gets Kubernetes' internal "range is full".
     */
    @Test
    void aFullRangeIsKubernetesInternalError() throws Exception {
        try (TestApiServer small =
                TestApiServer.start(
                        s ->
                                s.withServices(
                                        new ServiceRanges(
                                                Ipv4Cidr.parse("10.9.0.0/29"),
                                                PortRange.parse("30000-30000"))))) {
            String path = services("default");
            ObjectNode first =
                    small.create(
                            path, service("first", "{'type':'NodePort','ports':[{'port':80}]}"));
            assertEquals(30000, nodePort(first, 0));
            small.post(path, service("second", "{'type':'NodePort','ports':[{'port':80}]}"))
                    .assertStatus(
                            500,
                            "InternalError",
                            "Internal error occurred: failed to allocate a nodePort: range is full");
            Set<String> ips = new HashSet<>(Set.of(first.path("spec").path("clusterIP").asText()));
            for (int i = 0;
                    i < 4;
                    i++) { // 10.9.0.2 to 10.9.0.6: 10.9.0.1 is the kubernetes Service's
                ips.add(
                        small.create(path, service("svc-" + i, "{'ports':[{'port':80}]}"))
                                .path("spec")
                                .path("clusterIP")
                                .asText());
            }
            assertEquals(
                    Set.of("10.9.0.2", "10.9.0.3", "10.9.0.4", "10.9.0.5", "10.9.0.6"),
                    ips,
                    "the refused NodePort Service kept no address");
            small.post(path, service("no-room", "{'ports':[{'port':80}]}"))
                    .assertStatus(
                            500,
                            "InternalError",
                            "Internal error occurred: failed to allocate a serviceIP: range is full");
        }
    }
}
