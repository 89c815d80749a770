package io.kubepekko.api.kinds;

import static io.kubepekko.api.kinds.KindStrategiesTest.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.ClusterValues;
import io.kubepekko.api.alloc.Refusal;
import io.kubepekko.api.alloc.ValuePlan;
import io.kubepekko.api.alloc.ValueRequest;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A Service's cluster IP and node ports: what the write pipeline prepares and validates, what a
 * write plans to claim, how granted values are filled in, and the errors refusals answer with.
 */
class ServiceValuesTest {

    private static final Strategy SERVICES = BuiltinDefinitions.strategy("", "Service");
    private static final ClusterValues VALUES = SERVICES.clusterValues();
    private static final String IPS = ServiceNetwork.CLUSTER_IPS;
    private static final String PORTS = ServiceNetwork.NODE_PORTS;

    private static ObjectNode service(String spec) {
        return obj(
                "{'apiVersion':'v1','kind':'Service','metadata':{'name':'web','namespace':'default'},'spec':"
                        + spec
                        + "}");
    }

    /** Create as the pipeline runs it: defaults, prepare, validate (must pass). */
    private static ObjectNode created(String spec) {
        ObjectNode s = service(spec);
        SERVICES.applyDefaults(s);
        SERVICES.prepareForCreate(s);
        assertEquals(List.of(), errors(SERVICES.validateCreate(s)));
        return s;
    }

    /** Update as the pipeline runs it: defaults, prepare, then the update validation's errors. */
    private static List<String> update(ObjectNode old, ObjectNode now) {
        SERVICES.applyDefaults(now);
        SERVICES.prepareForUpdate(now, old);
        return errors(SERVICES.validateUpdate(now, old));
    }

    private static List<String> errors(List<FieldError> errs) {
        return errs.stream().map(FieldError::toString).toList();
    }

    private static ObjectNode stored(String spec, List<String> granted) {
        ObjectNode s = created(spec);
        ValuePlan plan = VALUES.plan(null, s);
        VALUES.fill(s, plan, granted);
        return s;
    }

    @Test
    void theServiceKindDeclaresItsValuesAndAllocator() {
        assertSame(VALUES, BuiltinDefinitions.strategy("", "Service").clusterValues());
        assertEquals("services", VALUES.allocator());
        assertEquals(null, BuiltinDefinitions.strategy("", "ConfigMap").clusterValues());
    }

    @Test
    void aClusterIpServiceAsksForAnyIpAndGetsSingleStackIpv4() {
        ObjectNode s = created("{'ports':[{'port':80}]}");
        ValuePlan plan = VALUES.plan(null, s);
        assertEquals(List.of(ValueRequest.any(IPS)), plan.requests());
        assertEquals("SingleStack", s.at("/spec/ipFamilyPolicy").asText());
        assertEquals("[\"IPv4\"]", s.at("/spec/ipFamilies").toString());
        VALUES.fill(s, plan, List.of("10.0.0.42"));
        assertEquals("10.0.0.42", s.at("/spec/clusterIP").asText());
        assertEquals("[\"10.0.0.42\"]", s.at("/spec/clusterIPs").toString());
        assertEquals(Set.of("service-cluster-ip/10.0.0.42"), VALUES.held(s));
    }

    @Test
    void aRequestedIpIsAskedForByNumberAndTheSingularFillsThePlural() {
        ObjectNode s = created("{'clusterIP':'10.0.0.5','ports':[{'port':80}]}");
        assertEquals(
                "[\"10.0.0.5\"]",
                s.at("/spec/clusterIPs").toString(),
                "PrepareForCreate normalizes");
        assertEquals(
                List.of(ValueRequest.specific(IPS, "10.0.0.5")), VALUES.plan(null, s).requests());
    }

    @Test
    void headlessAndExternalNameServicesAskForNothing() {
        ObjectNode headless =
                created("{'clusterIP':'None','selector':{'app':'web'},'ports':[{'port':80}]}");
        assertTrue(VALUES.plan(null, headless).isEmpty());
        assertEquals("SingleStack", headless.at("/spec/ipFamilyPolicy").asText());
        ObjectNode selectorless = created("{'clusterIP':'None','ports':[{'port':80}]}");
        assertTrue(VALUES.plan(null, selectorless).isEmpty());
        assertEquals(
                "RequireDualStack",
                selectorless.at("/spec/ipFamilyPolicy").asText(),
                "kube-apiserver defaults headless selectorless Services to dual-stack even on a single-stack cluster");
        assertEquals("[\"IPv4\",\"IPv6\"]", selectorless.at("/spec/ipFamilies").toString());
        ObjectNode external = created("{'type':'ExternalName','externalName':'db.example.com'}");
        assertTrue(VALUES.plan(null, external).isEmpty());
        assertTrue(external.at("/spec/ipFamilies").isMissingNode());
        assertEquals(Set.of(), VALUES.held(external));
    }

    @Test
    void nodePortServicesAskForAPortPerServicePortAndShareOnePerPortNumber() {
        ObjectNode s =
                created(
                        "{'type':'NodePort','ports':[{'name':'dns','port':53,'protocol':'UDP'},"
                                + "{'name':'dns-tcp','port':53,'protocol':'TCP'},{'name':'web','port':80,'nodePort':30080}]}");
        ValuePlan plan = VALUES.plan(null, s);
        assertEquals(
                List.of(
                        ValueRequest.any(IPS),
                        ValueRequest.any(PORTS),
                        ValueRequest.specific(PORTS, "30080")),
                plan.requests());
        VALUES.fill(s, plan, List.of("10.0.0.9", "31000", "30080"));
        assertEquals(31000, s.at("/spec/ports/0/nodePort").asInt());
        assertEquals(
                31000,
                s.at("/spec/ports/1/nodePort").asInt(),
                "TCP and UDP 53 share a node port, as in kube");
        assertEquals(
                Set.of(
                        "service-cluster-ip/10.0.0.9",
                        "service-node-port/31000",
                        "service-node-port/30080"),
                VALUES.held(s));
    }

    @Test
    void aLoadBalancerWithoutNodePortAllocationOnlyHonoursRequestedPorts() {
        ObjectNode s =
                created(
                        "{'type':'LoadBalancer','allocateLoadBalancerNodePorts':false,"
                                + "'ports':[{'name':'a','port':80},{'name':'b','port':81,'nodePort':30081}]}");
        assertEquals(
                List.of(ValueRequest.any(IPS), ValueRequest.specific(PORTS, "30081")),
                VALUES.plan(null, s).requests());
    }

    @Test
    void aLocalLoadBalancerAlsoGetsAHealthCheckNodePort() {
        ObjectNode s =
                created(
                        "{'type':'LoadBalancer','externalTrafficPolicy':'Local','ports':[{'port':80}]}");
        ValuePlan plan = VALUES.plan(null, s);
        assertEquals(
                List.of(ValueRequest.any(IPS), ValueRequest.any(PORTS), ValueRequest.any(PORTS)),
                plan.requests());
        VALUES.fill(s, plan, List.of("10.0.0.9", "31000", "31001"));
        assertEquals(31001, s.at("/spec/healthCheckNodePort").asInt());
    }

    @Test
    void ipv6AndDualStackAreNotConfiguredOnThisCluster() {
        ApiStatus v6 =
                assertThrows(
                                ApiException.class,
                                () ->
                                        VALUES.plan(
                                                null,
                                                created(
                                                        "{'clusterIP':'fd00::5','ports':[{'port':80}]}")))
                        .status();
        assertEquals(
                "Service \"web\" is invalid: spec.clusterIPs[0]: Invalid value: [\"fd00::5\"]: "
                        + "IPv6 is not configured on this cluster",
                v6.message());
        ApiStatus dual =
                assertThrows(
                                ApiException.class,
                                () ->
                                        VALUES.plan(
                                                null,
                                                created(
                                                        "{'ipFamilyPolicy':'RequireDualStack','ports':[{'port':80}]}")))
                        .status();
        assertEquals(
                "Service \"web\" is invalid: spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": "
                        + "this cluster is not configured for dual-stack services",
                dual.message());
        ApiStatus family =
                assertThrows(
                                ApiException.class,
                                () ->
                                        VALUES.plan(
                                                null,
                                                created(
                                                        "{'ipFamilies':['IPv6'],'ports':[{'port':80}]}")))
                        .status();
        assertEquals(
                "Service \"web\" is invalid: spec.ipFamilies[0]: Invalid value: \"IPv6\": "
                        + "not configured on this cluster",
                family.message());
    }

    @Test
    void refusalsAreWordedAsKubernetesWordsThem() {
        ObjectNode s =
                created(
                        "{'clusterIP':'10.0.0.5','type':'NodePort','ports':[{'port':80,'nodePort':30001}]}");
        ValuePlan plan = VALUES.plan(null, s);
        ApiStatus ip =
                VALUES.refused(
                        s,
                        plan,
                        0,
                        new Refusal(Refusal.Reason.TAKEN, "provided IP is already allocated"));
        assertEquals(422, ip.code());
        assertEquals(
                "Service \"web\" is invalid: spec.clusterIPs: Invalid value: [\"10.0.0.5\"]: "
                        + "failed to allocate IP 10.0.0.5: provided IP is already allocated",
                ip.message());
        ApiStatus port =
                VALUES.refused(
                        s,
                        plan,
                        1,
                        new Refusal(Refusal.Reason.TAKEN, "provided port is already allocated"));
        assertEquals(
                "Service \"web\" is invalid: spec.ports[0].nodePort: Invalid value: 30001: "
                        + "provided port is already allocated",
                port.message());
        ObjectNode any = created("{'type':'NodePort','ports':[{'port':80}]}");
        ValuePlan anyPlan = VALUES.plan(null, any);
        ApiStatus fullIps =
                VALUES.refused(any, anyPlan, 0, new Refusal(Refusal.Reason.FULL, "range is full"));
        assertEquals(500, fullIps.code());
        assertEquals(
                "Internal error occurred: failed to allocate a serviceIP: range is full",
                fullIps.message());
        assertEquals(
                "Internal error occurred: failed to allocate a nodePort: range is full",
                VALUES.refused(any, anyPlan, 1, new Refusal(Refusal.Reason.FULL, "range is full"))
                        .message());
    }

    // ---- updates ----

    @Test
    void aPutWithoutTheAllocatedValuesKeepsThem() {
        ObjectNode old =
                stored("{'type':'NodePort','ports':[{'port':80}]}", List.of("10.0.0.9", "31000"));
        ObjectNode now = service("{'type':'NodePort','ports':[{'port':80}]}");
        assertEquals(List.of(), update(old, now));
        assertEquals("10.0.0.9", now.at("/spec/clusterIP").asText());
        assertEquals(31000, now.at("/spec/ports/0/nodePort").asInt());
        assertEquals(
                old.get("spec"), now.get("spec"), "IP families kept too: the PUT changes nothing");
        assertTrue(VALUES.plan(old, now).isEmpty(), "nothing new to claim");
        assertEquals(VALUES.held(old), VALUES.held(now));
    }

    @Test
    void theClusterIpMayNotChangeOnceSet() {
        ObjectNode old = stored("{'ports':[{'port':80}]}", List.of("10.0.0.9"));
        ObjectNode now = service("{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        assertEquals(
                List.of(
                        "spec.clusterIPs[0]: Invalid value: [\"10.0.0.10\"]: may not change once set"),
                update(old, now));
    }

    @Test
    void clusterIpToNodePortClaimsNodePortsOnly() {
        ObjectNode old = stored("{'ports':[{'port':80}]}", List.of("10.0.0.9"));
        ObjectNode now = service("{'type':'NodePort','ports':[{'port':80}]}");
        assertEquals(List.of(), update(old, now));
        assertEquals(List.of(ValueRequest.any(PORTS)), VALUES.plan(old, now).requests());
    }

    @Test
    void nodePortToClusterIpDropsTheNodePortsForRelease() {
        ObjectNode old =
                stored("{'type':'NodePort','ports':[{'port':80}]}", List.of("10.0.0.9", "31000"));
        ObjectNode now = old.deepCopy();
        ((ObjectNode) now.get("spec")).put("type", "ClusterIP");
        ((ObjectNode) now.get("spec")).remove("externalTrafficPolicy");
        assertEquals(List.of(), update(old, now));
        assertFalse(now.at("/spec/ports/0").has("nodePort"));
        assertTrue(VALUES.plan(old, now).isEmpty());
        assertEquals(
                Set.of("service-cluster-ip/10.0.0.9"), VALUES.held(now), "31000 is no longer held");
    }

    @Test
    void clusterIpToExternalNameDropsTheIp() {
        ObjectNode old = stored("{'ports':[{'port':80}]}", List.of("10.0.0.9"));
        ObjectNode now = old.deepCopy();
        ((ObjectNode) now.get("spec"))
                .put("type", "ExternalName")
                .put("externalName", "db.example.com");
        ((ObjectNode) now.get("spec")).remove("internalTrafficPolicy");
        assertEquals(List.of(), update(old, now));
        assertTrue(now.at("/spec/clusterIP").isMissingNode());
        assertTrue(now.at("/spec/ipFamilies").isMissingNode());
        assertEquals(Set.of(), VALUES.held(now));
    }

    @Test
    void externalNameToClusterIpClaimsAnIp() {
        ObjectNode old = created("{'type':'ExternalName','externalName':'db.example.com'}");
        ObjectNode now = service("{'type':'ClusterIP','ports':[{'port':80}]}");
        assertEquals(List.of(), update(old, now));
        assertEquals(List.of(ValueRequest.any(IPS)), VALUES.plan(old, now).requests());
    }

    @Test
    void clusterIpValidationIsKubernetesOwn() {
        ObjectNode s = service("{'clusterIP':'10.0.0.300','ports':[{'port':80}]}");
        SERVICES.applyDefaults(s);
        SERVICES.prepareForCreate(s);
        assertEquals(
                List.of(
                        "spec.clusterIPs[0]: Invalid value: \"10.0.0.300\": must be a valid IP address, "
                                + "(e.g. 10.9.8.7 or 2001:db8::ffff)"),
                errors(SERVICES.validateCreate(s)));
        ObjectNode mismatch =
                service("{'clusterIP':'10.0.0.5','clusterIPs':['10.0.0.6'],'ports':[{'port':80}]}");
        SERVICES.applyDefaults(mismatch);
        assertEquals(
                List.of(
                        "spec.clusterIPs: Invalid value: [\"10.0.0.6\"]: first value must match `clusterIP`"),
                errors(SERVICES.validateCreate(mismatch)));
        ObjectNode zeros = service("{'clusterIP':'10.0.0.05','ports':[{'port':80}]}");
        SERVICES.applyDefaults(zeros);
        SERVICES.prepareForCreate(zeros);
        assertEquals(
                List.of(
                        "spec.clusterIPs[0]: Invalid value: \"10.0.0.05\": must not have leading 0s"),
                errors(SERVICES.validateCreate(zeros)));
    }
}
