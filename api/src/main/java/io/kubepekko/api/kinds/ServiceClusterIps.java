package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.alloc.Ipv4;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The linked Service fields {@code clusterIP}, {@code clusterIPs}, {@code ipFamilies}, {@code
 * ipFamilyPolicy} and the node ports: how Kubernetes normalizes them before validation ({@code
 * NormalizeClusterIPs}, {@code patchAllocatedValues}, {@code dropTypeDependentFields}) and how it
 * validates them ({@code ValidateServiceClusterIPsRelatedFields} and the update checks).
 */
final class ServiceClusterIps {
    private ServiceClusterIps() {}

    static final String NONE = "None";
    static final List<String> FAMILIES = List.of("IPv4", "IPv6");
    static final List<String> POLICIES =
            List.of("PreferDualStack", "RequireDualStack", "SingleStack");
    private static final FieldPath SPEC = FieldPath.of("spec");
    private static final FieldPath CLUSTER_IPS = SPEC.child("clusterIPs");
    private static final FieldPath FAMILIES_PATH = SPEC.child("ipFamilies");

    // ---- normalization (before validation) ----

    /**
     * {@code NormalizeClusterIPs}: a client that sets only the singular field gets the plural one
     * on create; on update an omitted or untouched plural follows the singular.
     */
    static void normalize(ObjectNode spec, JsonNode oldSpec) {
        String ip = Nodes.text(spec, "clusterIP");
        List<String> ips = Nodes.strings(spec, "clusterIPs");
        if (oldSpec == null) {
            if (!ip.isEmpty() && ips.isEmpty()) {
                spec.putArray("clusterIPs").add(ip);
            }
            return;
        }
        String oldIp = Nodes.text(oldSpec, "clusterIP");
        List<String> oldIps = Nodes.strings(oldSpec, "clusterIPs");
        if (!oldIps.isEmpty() && ips.isEmpty() && oldIp.equals(ip)) {
            spec.set("clusterIPs", oldSpec.get("clusterIPs").deepCopy());
            ips = oldIps;
        }
        if (!oldIp.equals(ip)) {
            if (!oldIp.isEmpty() && ip.isEmpty()) {
                if (oldIps.equals(ips)) {
                    spec.remove("clusterIPs");
                }
            } else if (oldIps.equals(ips)) {
                spec.putArray("clusterIPs").add(ip);
            }
        }
    }

    /**
     * {@code patchAllocatedValues}: values the server allocated and the client left out (a PUT of
     * the YAML it created from) are carried over, so resubmitting that YAML succeeds.
     */
    static void patchAllocated(ObjectNode spec, JsonNode oldSpec) {
        if (needsClusterIp(oldSpec) && needsClusterIp(spec)) {
            if (Nodes.text(spec, "clusterIP").isEmpty() && Nodes.has(oldSpec, "clusterIP")) {
                spec.put("clusterIP", Nodes.text(oldSpec, "clusterIP"));
            }
            if (Nodes.strings(spec, "clusterIPs").isEmpty()
                    && !Nodes.strings(oldSpec, "clusterIPs").isEmpty()) {
                spec.set("clusterIPs", oldSpec.get("clusterIPs").deepCopy());
            }
        }
        if (needsNodePort(oldSpec) && needsNodePort(spec)) {
            Set<Long> used = new HashSet<>(nodePorts(oldSpec));
            used.retainAll(nodePorts(spec));
            List<JsonNode> oldPorts = Nodes.items(oldSpec, "ports");
            for (JsonNode p : Nodes.items(spec, "ports")) {
                if (p instanceof ObjectNode port && port.path("nodePort").asLong(0) == 0) {
                    long old = 0;
                    for (JsonNode o : oldPorts) {
                        if (Nodes.text(o, "name").equals(Nodes.text(port, "name"))) {
                            old =
                                    o.path("nodePort")
                                            .asLong(0); // the last one of that name, as Go's map
                            // keeps it
                        }
                    }
                    if (old != 0 && !used.contains(old)) {
                        port.put("nodePort", (int) old);
                    }
                }
            }
        }
        if (needsHealthCheck(oldSpec)
                && needsHealthCheck(spec)
                && spec.path("healthCheckNodePort").asLong(0) == 0
                && oldSpec.path("healthCheckNodePort").asLong(0) != 0) {
            spec.put("healthCheckNodePort", oldSpec.path("healthCheckNodePort").asInt());
        }
    }

    /**
     * {@code dropTypeDependentFields}: a type change that makes allocated values meaningless clears
     * them, when the client did not also change them (the allocator releases them after the write).
     */
    static void dropTypeDependent(ObjectNode spec, JsonNode oldSpec) {
        if (needsClusterIp(oldSpec) && !needsClusterIp(spec)) {
            if (Nodes.text(oldSpec, "clusterIP").equals(Nodes.text(spec, "clusterIP"))
                    && Nodes.strings(oldSpec, "clusterIPs")
                            .equals(Nodes.strings(spec, "clusterIPs"))) {
                spec.remove(List.of("clusterIP", "clusterIPs"));
            }
            if (Nodes.strings(oldSpec, "ipFamilies").equals(Nodes.strings(spec, "ipFamilies"))) {
                spec.remove("ipFamilies");
            }
            if (Nodes.text(oldSpec, "ipFamilyPolicy").equals(Nodes.text(spec, "ipFamilyPolicy"))) {
                spec.remove("ipFamilyPolicy");
            }
        }
        if (needsNodePort(oldSpec)
                && !needsNodePort(spec)
                && new HashSet<>(nodePorts(oldSpec)).containsAll(nodePorts(spec))) {
            for (JsonNode p : Nodes.items(spec, "ports")) {
                if (p instanceof ObjectNode port) {
                    port.remove("nodePort");
                }
            }
        }
        if (needsHealthCheck(oldSpec)
                && !needsHealthCheck(spec)
                && oldSpec.path("healthCheckNodePort").asLong(0)
                        == spec.path("healthCheckNodePort").asLong(0)) {
            spec.remove("healthCheckNodePort");
        }
    }

    /**
     * {@code trimFieldsForDualStackDowngrade}: switching a dual-stack Service to SingleStack drops
     * the secondary values.
     */
    static void trimForSingleStack(ObjectNode spec, JsonNode oldSpec) {
        String oldPolicy = Nodes.text(oldSpec, "ipFamilyPolicy");
        boolean oldDual =
                oldPolicy.equals("RequireDualStack") || oldPolicy.equals("PreferDualStack");
        if (oldDual && Nodes.text(spec, "ipFamilyPolicy").equals("SingleStack")) {
            keepFirst(spec, "clusterIPs");
            keepFirst(spec, "ipFamilies");
        }
    }

    static void keepFirst(ObjectNode spec, String field) {
        if (spec.get(field) instanceof ArrayNode a && a.size() > 1) {
            while (a.size() > 1) {
                a.remove(a.size() - 1);
            }
        }
    }

    // ---- validation ----

    /** {@code ValidateServiceClusterIPsRelatedFields}, for every type but ExternalName. */
    static List<FieldError> validate(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        String ip = Nodes.text(spec, "clusterIP");
        List<String> ips = Nodes.strings(spec, "clusterIPs");
        if (!ip.isEmpty()) {
            if (ips.isEmpty()) {
                errs.add(FieldError.required(CLUSTER_IPS.toString(), ""));
            } else if (!ips.get(0).equals(ip)) {
                errs.add(
                        FieldError.invalid(
                                CLUSTER_IPS.toString(),
                                ipsValue(spec),
                                "first value must match `clusterIP`"));
            }
        } else if (!ips.isEmpty()) {
            errs.add(
                    FieldError.invalid(
                            CLUSTER_IPS.toString(),
                            ipsValue(spec),
                            "must be empty when `clusterIP` is not specified"));
        }
        Set<String> seen = new HashSet<>();
        List<String> families = Nodes.strings(spec, "ipFamilies");
        for (int i = 0; i < families.size(); i++) {
            String f = families.get(i);
            if (!FAMILIES.contains(f)) {
                errs.add(FieldError.notSupported(FAMILIES_PATH.index(i).toString(), f, FAMILIES));
            }
            if (!seen.add(f)) {
                errs.add(FieldError.duplicate(FAMILIES_PATH.index(i).toString(), f));
            }
        }
        if (Nodes.has(spec, "ipFamilyPolicy")
                && !POLICIES.contains(Nodes.text(spec, "ipFamilyPolicy"))) {
            errs.add(
                    FieldError.notSupported(
                            SPEC.child("ipFamilyPolicy").toString(),
                            Nodes.text(spec, "ipFamilyPolicy"),
                            POLICIES));
        }
        boolean invalidIps = false;
        for (int i = 0; i < ips.size(); i++) {
            String value = ips.get(i);
            if (i == 0 && value.equals(NONE)) {
                if (ips.size() > 1) {
                    invalidIps = true;
                    errs.add(
                            FieldError.invalid(
                                    CLUSTER_IPS.toString(),
                                    ipsValue(spec),
                                    "'None' must be the first and only value"));
                }
                continue;
            }
            List<FieldError> bad = ipErrors(value, CLUSTER_IPS.index(i));
            invalidIps |= !bad.isEmpty();
            errs.addAll(bad);
        }
        if (ips.size() > 2) {
            errs.add(
                    FieldError.invalid(
                            CLUSTER_IPS.toString(),
                            ipsValue(spec),
                            "may only hold up to 2 values"));
        }
        if (invalidIps) {
            return errs;
        }
        if (ips.size() > 1 && !(ips.size() == 2 && isV4(ips.get(0)) != isV4(ips.get(1)))) {
            errs.add(
                    FieldError.invalid(
                            CLUSTER_IPS.toString(),
                            ipsValue(spec),
                            "may specify no more than one IP for each IP family"));
        }
        if (!isHeadless(spec) && !ips.isEmpty() && !families.isEmpty()) {
            for (int i = 0; i < ips.size() && i < families.size(); i++) {
                if (families.get(i).equals("IPv4") && !isV4(ips.get(i))) {
                    errs.add(
                            FieldError.invalid(
                                    CLUSTER_IPS.index(i).toString(),
                                    ips.get(i),
                                    "expected an IPv4 value as indicated by `ipFamilies["
                                            + i
                                            + "]`"));
                }
                if (families.get(i).equals("IPv6") && isV4(ips.get(i))) {
                    errs.add(
                            FieldError.invalid(
                                    CLUSTER_IPS.index(i).toString(),
                                    ips.get(i),
                                    "expected an IPv6 value as indicated by `ipFamilies["
                                            + i
                                            + "]`"));
                }
            }
        }
        return errs;
    }

    /** {@code validation.IsValidIP} with Kubernetes' strict checks for new values. */
    static List<FieldError> ipErrors(String value, FieldPath path) {
        if (!IpAddresses.isIp(value)) {
            return List.of(FieldError.invalid(path.toString(), value, IpAddresses.INVALID_IP));
        }
        if (IpAddresses.isIpv4(value) && Ipv4.parse(value) < 0) {
            return List.of(FieldError.invalid(path.toString(), value, "must not have leading 0s"));
        }
        String lower = value.toLowerCase(Locale.ROOT);
        if (lower.startsWith("::ffff:") && IpAddresses.isIpv6(value) && lower.indexOf(':', 7) < 0) {
            return List.of(
                    FieldError.invalid(
                            path.toString(), value, "must not be an IPv4-mapped IPv6 address"));
        }
        return List.of();
    }

    /**
     * {@code validateUpgradeDowngradeClusterIPs}: the primary cluster IP never changes once set.
     */
    static List<FieldError> validateUpdate(JsonNode spec, JsonNode oldSpec) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(spec, "type");
        String oldType = Nodes.text(oldSpec, "type");
        if (type.equals("ExternalName") || oldType.equals("ExternalName")) {
            return errs;
        }
        boolean headless = isHeadless(spec);
        boolean oldHeadless = isHeadless(oldSpec);
        List<String> ips = Nodes.strings(spec, "clusterIPs");
        List<String> oldIps = Nodes.strings(oldSpec, "clusterIPs");
        if (!(headless && oldHeadless)) {
            if (oldIps.size() == ips.size()) {
                for (int i = 0; i < oldIps.size(); i++) {
                    if (!oldIps.get(i).equals(ips.get(i))) {
                        errs.add(
                                FieldError.invalid(
                                        CLUSTER_IPS.index(i).toString(),
                                        ipsValue(spec),
                                        "may not change once set"));
                    }
                }
            } else if (oldIps.size() > ips.size()) {
                if (ips.isEmpty()) {
                    errs.add(
                            FieldError.invalid(
                                    CLUSTER_IPS.index(0).toString(),
                                    ipsValue(spec),
                                    "primary clusterIP can not be unset"));
                } else if (!ips.get(0).equals(oldIps.get(0))) {
                    errs.add(
                            FieldError.invalid(
                                    CLUSTER_IPS.index(0).toString(),
                                    ipsValue(spec),
                                    "may not change once set"));
                }
                if (ips.size() == 1 && !Nodes.text(spec, "ipFamilyPolicy").equals("SingleStack")) {
                    errs.add(
                            FieldError.invalid(
                                    SPEC.child("ipFamilyPolicy").toString(),
                                    policyValue(spec),
                                    "must be set to 'SingleStack' when releasing the secondary clusterIP"));
                }
            } else if (!oldIps.isEmpty() && !ips.get(0).equals(oldIps.get(0))) {
                errs.add(
                        FieldError.invalid(
                                CLUSTER_IPS.index(0).toString(),
                                ipsValue(spec),
                                "may not change once set"));
            }
        }
        if (headless == oldHeadless && !headless) {
            errs.addAll(validateFamiliesUpdate(spec, oldSpec));
        }
        return errs;
    }

    /**
     * {@code validateUpgradeDowngradeIPFamilies}, with Kubernetes' quirks (the index and value it
     * reports).
     */
    private static List<FieldError> validateFamiliesUpdate(JsonNode spec, JsonNode oldSpec) {
        List<FieldError> errs = new ArrayList<>();
        List<String> families = Nodes.strings(spec, "ipFamilies");
        List<String> old = Nodes.strings(oldSpec, "ipFamilies");
        String at = FAMILIES_PATH.index(0).toString();
        if (old.size() == families.size()) {
            for (int i = 0; i < old.size(); i++) {
                if (!old.get(i).equals(families.get(i))) {
                    errs.add(
                            FieldError.invalid(
                                    at,
                                    BadValue.of(spec.path("ipFamilies")),
                                    "may not change once set"));
                }
            }
        } else if (old.size() > families.size()) {
            if (Nodes.strings(spec, "clusterIPs").isEmpty()) {
                errs.add(
                        FieldError.invalid(
                                at,
                                BadValue.of(spec.path("ipFamilies")),
                                "primary ipFamily can not be unset"));
            }
            if (!families.isEmpty() && !families.get(0).equals(old.get(0))) {
                errs.add(FieldError.invalid(at, ipsValue(spec), "may not change once set"));
            }
            if (families.size() == 1 && !Nodes.text(spec, "ipFamilyPolicy").equals("SingleStack")) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child("ipFamilyPolicy").toString(),
                                policyValue(spec),
                                "must be set to 'SingleStack' when releasing the secondary ipFamily"));
            }
        } else if (!old.isEmpty() && !families.get(0).equals(old.get(0))) {
            errs.add(FieldError.invalid(at, ipsValue(spec), "may not change once set"));
        }
        return errs;
    }

    // ---- shared predicates ----

    /** Kubernetes' {@code isHeadlessService}: {@code clusterIPs} is exactly {@code ["None"]}. */
    static boolean isHeadless(JsonNode spec) {
        List<String> ips = Nodes.strings(spec, "clusterIPs");
        return ips.size() == 1 && ips.get(0).equals(NONE);
    }

    static boolean needsClusterIp(JsonNode spec) {
        return !Nodes.text(spec, "type").equals("ExternalName");
    }

    static boolean needsNodePort(JsonNode spec) {
        String type = Nodes.text(spec, "type");
        return type.equals("NodePort") || type.equals("LoadBalancer");
    }

    /** {@code apiservice.NeedsHealthCheck}: a LoadBalancer that keeps traffic on the local node. */
    static boolean needsHealthCheck(JsonNode spec) {
        return Nodes.text(spec, "type").equals("LoadBalancer")
                && Nodes.text(spec, "externalTrafficPolicy").equals("Local");
    }

    /** The non-zero node ports of a spec's ports, in order. */
    static List<Long> nodePorts(JsonNode spec) {
        List<Long> out = new ArrayList<>();
        for (JsonNode p : Nodes.items(spec, "ports")) {
            long np = p.path("nodePort").asLong(0);
            if (np != 0) {
                out.add(np);
            }
        }
        return out;
    }

    static boolean isV4(String ip) {
        return IpAddresses.isIpv4(ip);
    }

    /**
     * {@code spec.clusterIPs} as Kubernetes prints a string slice in an error (JSON; absent is
     * null).
     */
    static BadValue ipsValue(JsonNode spec) {
        return BadValue.of(spec.get("clusterIPs") == null ? null : spec.get("clusterIPs"));
    }

    /** {@code spec.ipFamilyPolicy}, a pointer in Go: null when unset. */
    static Object policyValue(JsonNode spec) {
        return Nodes.has(spec, "ipFamilyPolicy") ? Nodes.text(spec, "ipFamilyPolicy") : null;
    }
}
