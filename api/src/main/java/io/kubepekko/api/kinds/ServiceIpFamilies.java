package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Kubernetes' {@code initIPFamilyFields} for a cluster configured with one IPv4 range: fills {@code
 * ipFamilyPolicy} and {@code ipFamilies} the way kube-apiserver does before it allocates (also in a
 * dry run), and refuses what such a cluster cannot serve (IPv6, dual-stack).
 */
final class ServiceIpFamilies {
    private ServiceIpFamilies() {}

    /** The family of the only configured range. */
    static final String FAMILY = "IPv4";

    private static final FieldPath SPEC = FieldPath.of("spec");

    /**
     * @param oldSpec the stored spec, or {@code null} for a create
     * @throws io.kubepekko.api.status.ApiException 422 as kube-apiserver answers
     */
    static void init(ObjectNode spec, JsonNode oldSpec, String name) {
        if (!ServiceClusterIps.needsClusterIp(spec) || matchingPreferDualStack(spec, oldSpec)) {
            return;
        }
        boolean headlessSelectorless =
                Nodes.text(spec, "clusterIP").equals(ServiceClusterIps.NONE)
                        && Nodes.stringMap(spec.get("selector")).isEmpty();
        if (!Nodes.has(spec, "ipFamilyPolicy")) {
            if (oldSpec != null && Nodes.has(oldSpec, "ipFamilyPolicy")) {
                spec.put("ipFamilyPolicy", Nodes.text(oldSpec, "ipFamilyPolicy"));
            } else {
                spec.put(
                        "ipFamilyPolicy",
                        headlessSelectorless ? "RequireDualStack" : "SingleStack");
            }
        }
        // Loose pre-validation, so that what follows need not consider malformed values.
        throwIfAny(ServiceClusterIps.validate(spec), name);
        String policy = Nodes.text(spec, "ipFamilyPolicy");
        List<FieldError> errs = new ArrayList<>();
        if (oldSpec != null) {
            if (policy.equals("SingleStack")) {
                if (Nodes.strings(oldSpec, "clusterIPs")
                        .equals(Nodes.strings(spec, "clusterIPs"))) {
                    ServiceClusterIps.keepFirst(spec, "clusterIPs");
                }
                if (Nodes.strings(oldSpec, "ipFamilies")
                        .equals(Nodes.strings(spec, "ipFamilies"))) {
                    ServiceClusterIps.keepFirst(spec, "ipFamilies");
                }
            } else {
                if (reduced(spec, oldSpec, "clusterIPs")) {
                    errs.add(
                            FieldError.invalid(
                                    SPEC.child("ipFamilyPolicy").toString(),
                                    policy,
                                    "must be 'SingleStack' to release the secondary cluster IP"));
                }
                if (reduced(spec, oldSpec, "ipFamilies")) {
                    errs.add(
                            FieldError.invalid(
                                    SPEC.child("ipFamilyPolicy").toString(),
                                    policy,
                                    "must be 'SingleStack' to release the secondary IP family"));
                }
            }
        }
        List<String> ips = Nodes.strings(spec, "clusterIPs");
        if (policy.equals("SingleStack")) {
            if (ips.size() == 2) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child("ipFamilyPolicy").toString(),
                                policy,
                                "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
            }
            if (Nodes.strings(spec, "ipFamilies").size() == 2) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child("ipFamilyPolicy").toString(),
                                policy,
                                "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
            }
        }
        ArrayNode families = Nodes.arr(spec, "ipFamilies");
        for (int i = 0; i < ips.size() && !ips.get(i).equals(ServiceClusterIps.NONE); i++) {
            String family = ServiceClusterIps.isV4(ips.get(i)) ? "IPv4" : "IPv6";
            if (i >= families.size()) {
                if (!family.equals(FAMILY)) {
                    errs.add(
                            FieldError.invalid(
                                    SPEC.child("clusterIPs").index(i).toString(),
                                    ServiceClusterIps.ipsValue(spec),
                                    family + " is not configured on this cluster"));
                } else {
                    families.add(family);
                }
            }
        }
        throwIfAny(errs, name);
        if (headlessSelectorless) {
            if (families.isEmpty()) {
                families.add(FAMILY);
            }
            if (families.size() < 2 && !policy.equals("SingleStack")) {
                families.add(families.get(0).asText().equals("IPv4") ? "IPv6" : "IPv4");
            }
            return;
        }
        if (policy.equals("RequireDualStack")) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("ipFamilyPolicy").toString(),
                            policy,
                            "this cluster is not configured for dual-stack services"));
        }
        for (int i = 0; i < families.size(); i++) {
            if (!families.get(i).asText().equals(FAMILY)) {
                errs.add(
                        FieldError.invalid(
                                SPEC.child("ipFamilies").index(i).toString(),
                                families.get(i).asText(),
                                "not configured on this cluster"));
            }
        }
        throwIfAny(errs, name);
        if (families.isEmpty()) {
            families.add(FAMILY);
        }
    }

    /**
     * An unchanged PreferDualStack Service is left as it is, so a cluster change does not upgrade
     * or downgrade it.
     */
    private static boolean matchingPreferDualStack(JsonNode spec, JsonNode oldSpec) {
        return oldSpec != null
                && Nodes.text(spec, "ipFamilyPolicy").equals("PreferDualStack")
                && Nodes.text(oldSpec, "ipFamilyPolicy").equals("PreferDualStack")
                && Nodes.text(spec, "type").equals(Nodes.text(oldSpec, "type"))
                && Nodes.strings(spec, "clusterIPs").equals(Nodes.strings(oldSpec, "clusterIPs"))
                && Nodes.strings(spec, "ipFamilies").equals(Nodes.strings(oldSpec, "ipFamilies"));
    }

    private static boolean reduced(JsonNode spec, JsonNode oldSpec, String field) {
        List<String> now = Nodes.strings(spec, field);
        return !now.isEmpty() && now.size() < Nodes.strings(oldSpec, field).size();
    }

    private static void throwIfAny(List<FieldError> errs, String name) {
        if (!errs.isEmpty()) {
            throw ApiStatus.invalid("", "Service", name, errs).exception();
        }
    }
}
