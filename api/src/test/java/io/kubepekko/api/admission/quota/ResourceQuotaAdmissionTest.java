package io.kubepekko.api.admission.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.definition.Registry;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.ApiStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The ResourceQuota admission plugin and its arithmetic against the examples of kube's task pages
 * ("Configure Memory and CPU Quotas for a Namespace", "Configure a Pod Quota for a Namespace",
 * "Resource Quotas" concepts page), and the ledger's charges under concurrent admits.
 */
class ResourceQuotaAdmissionTest {

    private static final UserInfo EVE = UserInfo.of("eve", List.of());
    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final GroupResource QUOTAS = new GroupResource("", "resourcequotas");
    private static final Instant NOW = Instant.parse("2026-11-30T00:00:00Z");

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** A quota whose status the controller has written: its hard limits, nothing used yet. */
    static ObjectNode quota(String name, String spec) {
        ObjectNode quota = unsynced(name, spec);
        ObjectNode status = quota.putObject("status");
        status.set("hard", quota.path("spec").path("hard").deepCopy());
        ObjectNode used = status.putObject("used");
        quota.path("spec").path("hard").fieldNames().forEachRemaining(n -> used.put(n, "0"));
        return quota;
    }

    /** A quota the controller has not written a status for. */
    static ObjectNode unsynced(String name, String spec) {
        return obj(
                "{'apiVersion':'v1','kind':'ResourceQuota','metadata':{'name':'"
                        + name
                        + "','namespace':'ns','uid':'q-"
                        + name
                        + "'},'spec':"
                        + spec
                        + "}");
    }

    /**
     * A pod {@code name} with one container {@code c} with {@code resources}; {@code extra} spec
     * fields.
     */
    static ObjectNode pod(String name, String resources, String extra) {
        return obj(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                        + name
                        + "','namespace':'ns','uid':'uid-"
                        + name
                        + "'},'spec':{"
                        + extra
                        + "'containers':[{'name':'"
                        + name
                        + "-ctr','image':'nginx','resources':"
                        + resources
                        + "}]}}");
    }

    static ObjectNode pod(String name, String resources) {
        return pod(name, resources, "");
    }

    private final QuotaLedger ledger =
            new QuotaLedger(Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(30));
    private final ResourceQuotaAdmission plugin = new ResourceQuotaAdmission(ledger);

    private Optional<ApiStatus> create(GroupResource resource, ObjectNode object) {
        return create(resource, object, false);
    }

    private Optional<ApiStatus> create(GroupResource resource, ObjectNode object, boolean dryRun) {
        return plugin.refusal(
                new AdmissionRequest(
                        Operation.CREATE,
                        EVE,
                        resource,
                        "",
                        "ns",
                        object.path("metadata").path("name").asText(),
                        object,
                        null,
                        dryRun));
    }

    private void quotas(ObjectNode... quotas) {
        ledger.replace(QUOTAS, List.of(quotas));
        for (GroupResource r : QuotaEvaluators.tracked()) {
            if (!r.equals(QUOTAS)) {
                ledger.replace(r, List.of());
            }
        }
    }

    private Map<String, String> used(String quota, boolean observedOnly) {
        SortedMap<String, QuotaAmount> used = ledger.used("ns", observedOnly).get(quota);
        Map<String, String> printed = new TreeMap<>();
        used.forEach((k, v) -> printed.put(k, v.toString()));
        return printed;
    }

    @Nested
    class MemoryAndCpuQuota {
        private final ObjectNode memCpuDemo =
                quota(
                        "mem-cpu-demo",
                        "{'hard':{'requests.cpu':'1','requests.memory':'1Gi','limits.cpu':'2','limits.memory':'2Gi'}}");

        @Test
        void theSecondPodOfTheTaskPageExceedsRequestsMemory() {
            quotas(memCpuDemo);
            assertEquals(
                    Optional.empty(),
                    create(
                            PODS,
                            pod(
                                    "quota-mem-cpu-demo",
                                    "{'limits':{'memory':'800Mi','cpu':'800m'},'requests':{'memory':'600Mi','cpu':'400m'}}")));
            Optional<ApiStatus> refused =
                    create(
                            PODS,
                            pod(
                                    "quota-mem-cpu-demo-2",
                                    "{'limits':{'memory':'1Gi','cpu':'800m'},'requests':{'memory':'700Mi','cpu':'400m'}}"));
            assertEquals(403, refused.orElseThrow().code());
            assertEquals(
                    "pods \"quota-mem-cpu-demo-2\" is forbidden: exceeded quota: mem-cpu-demo,"
                            + " requested: requests.memory=700Mi, used: requests.memory=600Mi,"
                            + " limited: requests.memory=1Gi",
                    refused.get().message());
            assertEquals(
                    Map.of(
                            "limits.cpu", "800m",
                            "limits.memory", "800Mi",
                            "requests.cpu", "400m",
                            "requests.memory", "600Mi"),
                    used("mem-cpu-demo", false));
        }

        @Test
        void aPodWithoutRequestsMustSpecifyThemForEveryContainer() {
            quotas(memCpuDemo);
            Optional<ApiStatus> refused = create(PODS, pod("nginx", "{}"));
            assertEquals(
                    "pods \"nginx\" is forbidden: failed quota: mem-cpu-demo: must specify"
                            + " limits.cpu for: nginx-ctr; limits.memory for: nginx-ctr;"
                            + " requests.cpu for: nginx-ctr; requests.memory for: nginx-ctr",
                    refused.orElseThrow().message());
        }

        @Test
        void severalExceededResourcesAreListedInNameOrder() {
            quotas(quota("q", "{'hard':{'cpu':'2','memory':'1Gi'}}"));
            Optional<ApiStatus> refused =
                    create(PODS, pod("big", "{'requests':{'cpu':'3','memory':'2Gi'}}"));
            assertEquals(
                    "pods \"big\" is forbidden: exceeded quota: q, requested: cpu=3,memory=2Gi,"
                            + " used: cpu=0,memory=0, limited: cpu=2,memory=1Gi",
                    refused.orElseThrow().message());
        }

        @Test
        void sumsKeepTheFirstAddendsFormat() {
            quotas(quota("q", "{'hard':{'cpu':'2'}}"));
            create(PODS, pod("a", "{'requests':{'cpu':'500m'}}"));
            create(PODS, pod("b", "{'requests':{'cpu':'500m'}}"));
            create(PODS, pod("c", "{'requests':{'cpu':'1'}}"));
            Optional<ApiStatus> refused = create(PODS, pod("d", "{'requests':{'cpu':'1'}}"));
            assertEquals(
                    "pods \"d\" is forbidden: exceeded quota: q, requested: cpu=1, used: cpu=2,"
                            + " limited: cpu=2",
                    refused.orElseThrow().message());
        }
    }

    @Nested
    class PodQuota {
        @Test
        void theThirdPodOfTheTaskPageIsRefused() {
            quotas(quota("pod-demo", "{'hard':{'pods':'2'}}"));
            assertEquals(Optional.empty(), create(PODS, pod("p1", "{}")));
            assertEquals(Optional.empty(), create(PODS, pod("p2", "{}")));
            assertEquals(
                    "pods \"p3\" is forbidden: exceeded quota: pod-demo, requested: pods=1,"
                            + " used: pods=2, limited: pods=2",
                    create(PODS, pod("p3", "{}")).orElseThrow().message());
        }

        @Test
        void aDryRunIsCheckedButChargesNothing() {
            quotas(quota("q", "{'hard':{'pods':'1'}}"));
            assertEquals(Optional.empty(), create(PODS, pod("p1", "{}"), true));
            assertEquals(Map.of("pods", "0"), used("q", false));
            assertEquals(Optional.empty(), create(PODS, pod("p1", "{}")));
            assertTrue(create(PODS, pod("p2", "{}"), true).isPresent());
        }

        @Test
        void terminalPodsCountOnlyAsStoredObjects() {
            quotas(quota("q", "{'hard':{'pods':'1','count/pods':'5'}}"));
            ObjectNode done = pod("done", "{}");
            done.putObject("status").put("phase", "Succeeded");
            ledger.put(PODS, done);
            assertEquals(Map.of("pods", "0", "count/pods", "1"), used("q", true));
            assertEquals(Optional.empty(), create(PODS, pod("p1", "{}")));
        }

        @Test
        void aPodDeletedPastItsGracePeriodIsNotCharged() {
            ObjectNode p = pod("p", "{}");
            ((ObjectNode) p.get("metadata"))
                    .put("deletionTimestamp", "2026-11-29T23:59:00Z")
                    .put("deletionGracePeriodSeconds", 30);
            assertTrue(!PodEvaluator.counted(p, NOW));
            ((ObjectNode) p.get("metadata")).put("deletionGracePeriodSeconds", 120);
            assertTrue(PodEvaluator.counted(p, NOW));
        }
    }

    @Nested
    class Ledger {
        @Test
        void aChargeStandsUntilTheInformerObservesTheObject() {
            quotas(quota("q", "{'hard':{'pods':'2'}}"));
            ObjectNode p1 = pod("p1", "{}");
            create(PODS, p1);
            assertEquals(Map.of("pods", "1"), used("q", false));
            assertEquals(Map.of("pods", "0"), used("q", true));
            ledger.put(PODS, p1);
            assertEquals(Map.of("pods", "1"), used("q", false));
            assertEquals(Map.of("pods", "1"), used("q", true));
            ledger.remove(PODS, p1);
            assertEquals(Map.of("pods", "0"), used("q", false));
        }

        @Test
        void aChargeNoObservationSettlesExpires() {
            Instant[] now = {NOW};
            Clock moving =
                    new Clock() {
                        @Override
                        public ZoneId getZone() {
                            return ZoneOffset.UTC;
                        }

                        @Override
                        public Clock withZone(ZoneId zone) {
                            return this;
                        }

                        @Override
                        public Instant instant() {
                            return now[0];
                        }
                    };
            QuotaLedger expiring = new QuotaLedger(moving, Duration.ofSeconds(30));
            expiring.replace(QUOTAS, List.of(quota("q", "{'hard':{'pods':'1'}}")));
            QuotaEvaluator pods = QuotaEvaluators.of(PODS).orElseThrow();
            expiring.admit(pods, Operation.CREATE, "ns", pod("lost", "{}"), null, false);
            assertTrue(
                    expiring.admit(pods, Operation.CREATE, "ns", pod("p", "{}"), null, false)
                            instanceof QuotaCheck.Refused);
            now[0] = NOW.plusSeconds(31);
            assertTrue(
                    expiring.admit(pods, Operation.CREATE, "ns", pod("p", "{}"), null, false)
                            instanceof QuotaCheck.Admitted);
        }

        @Test
        void aPodPastItsGracePeriodStopsCountingAtTheNextReevaluation() {
            Instant[] now = {NOW};
            Clock moving =
                    new Clock() {
                        @Override
                        public ZoneId getZone() {
                            return ZoneOffset.UTC;
                        }

                        @Override
                        public Clock withZone(ZoneId zone) {
                            return this;
                        }

                        @Override
                        public Instant instant() {
                            return now[0];
                        }
                    };
            QuotaLedger resynced = new QuotaLedger(moving, Duration.ofSeconds(30));
            resynced.replace(QUOTAS, List.of(quota("q", "{'hard':{'pods':'5'}}")));
            ObjectNode deleted = pod("going", "{}");
            ((ObjectNode) deleted.path("metadata"))
                    .put("deletionTimestamp", NOW.toString())
                    .put("deletionGracePeriodSeconds", 30);
            resynced.replace(PODS, List.of(deleted));
            assertEquals("1", resynced.used("ns", true).get("q").get("pods").toString());

            now[0] = NOW.plusSeconds(31);
            assertEquals("1", resynced.used("ns", true).get("q").get("pods").toString());
            resynced.reevaluate();
            assertEquals("0", resynced.used("ns", true).get("q").get("pods").toString());
        }

        @Test
        void sixtyFourConcurrentAdmitsNeverOverspend() throws Exception {
            quotas(quota("q", "{'hard':{'pods':'10','requests.cpu':'5'}}"));
            ExecutorService pool = Executors.newFixedThreadPool(64);
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> admitted = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                String name = "p" + i;
                admitted.add(
                        pool.submit(
                                () -> {
                                    start.await();
                                    return create(PODS, pod(name, "{'requests':{'cpu':'300m'}}"))
                                            .isEmpty();
                                }));
            }
            start.countDown();
            int count = 0;
            for (Future<Boolean> f : admitted) {
                count += f.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            pool.shutdown();
            assertEquals(10, count);
            assertEquals(Map.of("pods", "10", "requests.cpu", "3"), used("q", false));
        }
    }

    @Nested
    class Scopes {
        @Test
        void aBestEffortQuotaCountsOnlyBestEffortPods() {
            quotas(quota("be", "{'hard':{'pods':'1'},'scopes':['BestEffort']}"));
            assertEquals(
                    Optional.empty(), create(PODS, pod("burstable", "{'requests':{'cpu':'1'}}")));
            assertEquals(Optional.empty(), create(PODS, pod("be1", "{}")));
            assertTrue(create(PODS, pod("be2", "{}")).isPresent());
        }

        @Test
        void aTerminatingQuotaCountsPodsWithADeadline() {
            quotas(quota("t", "{'hard':{'pods':'0'},'scopes':['Terminating']}"));
            assertEquals(Optional.empty(), create(PODS, pod("long", "{}")));
            assertTrue(create(PODS, pod("job", "{}", "'activeDeadlineSeconds':60,")).isPresent());
        }

        @Test
        void aPriorityClassSelectorCountsThePodsOfItsClasses() {
            quotas(
                    quota(
                            "pods-high",
                            "{'hard':{'pods':'0'},'scopeSelector':{'matchExpressions':[{'operator':'In','scopeName':'PriorityClass','values':['high']}]}}"));
            assertEquals(
                    Optional.empty(), create(PODS, pod("low", "{}", "'priorityClassName':'low',")));
            assertEquals(
                    "pods \"high\" is forbidden: exceeded quota: pods-high, requested: pods=1,"
                            + " used: pods=0, limited: pods=0",
                    create(PODS, pod("high", "{}", "'priorityClassName':'high',"))
                            .orElseThrow()
                            .message());
        }
    }

    @Nested
    class ObjectCounts {
        @Test
        void servicesCountTheirNodePortsAndLoadBalancers() {
            quotas(quota("s", "{'hard':{'services.nodeports':'2','services.loadbalancers':'1'}}"));
            GroupResource services = new GroupResource("", "services");
            ObjectNode lb =
                    obj(
                            "{'metadata':{'name':'lb','namespace':'ns','uid':'u1'},'spec':{'type':'LoadBalancer','ports':[{'port':80}]}}");
            assertEquals(Optional.empty(), create(services, lb));
            ObjectNode np =
                    obj(
                            "{'metadata':{'name':'np','namespace':'ns','uid':'u2'},'spec':{'type':'NodePort','ports':[{'port':80},{'port':443}]}}");
            assertEquals(
                    "services \"np\" is forbidden: exceeded quota: s, requested:"
                            + " services.nodeports=2, used: services.nodeports=1, limited:"
                            + " services.nodeports=2",
                    create(services, np).orElseThrow().message());
        }

        @Test
        void anyOtherResourceIsCountedAsCountResourceDotGroupOnCreate() {
            quotas(quota("d", "{'hard':{'count/deployments.apps':'2','count/jobs.batch':'0'}}"));
            GroupResource deployments = new GroupResource("apps", "deployments");
            ledger.replace(
                    deployments,
                    List.of(obj("{'metadata':{'name':'a','namespace':'ns','uid':'a'}}")));
            assertEquals(
                    Optional.empty(),
                    create(
                            deployments,
                            obj("{'metadata':{'name':'b','namespace':'ns','uid':'b'}}")));
            assertEquals(
                    "deployments.apps \"c\" is forbidden: exceeded quota: d, requested:"
                            + " count/deployments.apps=1, used: count/deployments.apps=2, limited:"
                            + " count/deployments.apps=2",
                    create(deployments, obj("{'metadata':{'name':'c','namespace':'ns','uid':'c'}}"))
                            .orElseThrow()
                            .message());
            assertEquals(
                    "jobs.batch \"j\" is forbidden: exceeded quota: d, requested:"
                            + " count/jobs.batch=1, used: count/jobs.batch=0, limited:"
                            + " count/jobs.batch=0",
                    create(
                                    new GroupResource("batch", "jobs"),
                                    obj("{'metadata':{'name':'j','namespace':'ns','uid':'j'}}"))
                            .orElseThrow()
                            .message());
        }

        @Test
        void eventsAreIgnoredAndAnyOtherNamespacedStoredResourceCanBeNeeded() {
            assertEquals(Optional.empty(), QuotaEvaluators.of(new GroupResource("", "events")));
            List<String> counts = new ArrayList<>();
            for (ResourceType type : Registry.builtin().stored()) {
                counts.add(QuotaEvaluator.countName(type.groupResource()));
            }
            Set<GroupResource> needed = QuotaEvaluators.needed(counts, Registry.builtin().stored());
            assertTrue(needed.contains(new GroupResource("apps", "deployments")));
            assertTrue(needed.contains(new GroupResource("batch", "cronjobs")));
            assertTrue(needed.contains(new GroupResource("", "pods")));
            assertFalse(needed.contains(new GroupResource("", "events")));
            assertFalse(needed.contains(new GroupResource("", "namespaces")));
        }

        @Test
        void aQuotaLimitsOnlyOnceItsStatusReportsTheUsageOfWhatItLimits() {
            GroupResource configmaps = new GroupResource("", "configmaps");
            ObjectNode cm = obj("{'metadata':{'name':'a','namespace':'ns','uid':'a'}}");
            quotas(unsynced("c", "{'hard':{'count/configmaps':'5','configmaps':'5','pods':'1'}}"));
            assertEquals(Optional.empty(), create(configmaps, cm), "no status.hard: no limit");

            ObjectNode partly =
                    quota("c", "{'hard':{'count/configmaps':'5','configmaps':'5','pods':'1'}}");
            ((ObjectNode) partly.path("status").path("used")).remove("configmaps");
            quotas(partly);
            assertEquals(
                    "configmaps \"a\" is forbidden: status unknown for quota: c, resources:"
                            + " configmaps,count/configmaps",
                    create(configmaps, cm).orElseThrow().message());
            // Pods are limited by what the status reports: their usage is known.
            assertEquals(Optional.empty(), create(PODS, pod("p", "{}")));

            // The spec alone does not limit: kube's admission reads status.hard.
            ObjectNode spec = quota("c", "{'hard':{'count/configmaps':'5'}}");
            ((ObjectNode) spec.path("spec").path("hard")).put("count/configmaps", "0");
            quotas(spec);
            assertEquals(Optional.empty(), create(configmaps, cm));
        }

        @Test
        void configMapsCountUnderBothNames() {
            quotas(quota("c", "{'hard':{'configmaps':'1','count/configmaps':'5'}}"));
            GroupResource configmaps = new GroupResource("", "configmaps");
            assertEquals(
                    Optional.empty(),
                    create(
                            configmaps,
                            obj("{'metadata':{'name':'a','namespace':'ns','uid':'a'}}")));
            assertEquals(
                    "configmaps \"b\" is forbidden: exceeded quota: c, requested: configmaps=1,"
                            + " used: configmaps=1, limited: configmaps=1",
                    create(configmaps, obj("{'metadata':{'name':'b','namespace':'ns','uid':'b'}}"))
                            .orElseThrow()
                            .message());
        }

        @Test
        void aClaimsGrowthIsChargedOnUpdate() {
            quotas(quota("st", "{'hard':{'requests.storage':'10Gi'}}"));
            GroupResource claims = new GroupResource("", "persistentvolumeclaims");
            ObjectNode small =
                    obj(
                            "{'metadata':{'name':'c','namespace':'ns','uid':'c','resourceVersion':'5'},'spec':{'resources':{'requests':{'storage':'4Gi'}}}}");
            ledger.put(claims, small);
            ObjectNode big = small.deepCopy();
            ((ObjectNode) big.at("/spec/resources/requests")).put("storage", "12Gi");
            Optional<ApiStatus> refused =
                    plugin.refusal(
                            new AdmissionRequest(
                                    Operation.UPDATE,
                                    EVE,
                                    claims,
                                    "",
                                    "ns",
                                    "c",
                                    big,
                                    small,
                                    false));
            assertEquals(
                    "persistentvolumeclaims \"c\" is forbidden: exceeded quota: st, requested:"
                            + " requests.storage=8Gi, used: requests.storage=4Gi, limited:"
                            + " requests.storage=10Gi",
                    refused.orElseThrow().message());
        }
    }
}
