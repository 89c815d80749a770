package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * NetworkPolicies: selectors, peers, ports and policy types; policyTypes defaulted from the rules.
 */
public final class NetworkPolicyStrategy implements Strategy {

    static final List<String> POLICY_TYPES = List.of("Ingress", "Egress");
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public void applyDefaults(ObjectNode obj) {
        ObjectNode spec = Nodes.obj(obj, "spec");
        if (!Nodes.has(spec, "podSelector")) {
            spec.putObject("podSelector");
        }
        for (String dir : POLICY_TYPES) {
            for (JsonNode rule : Nodes.items(spec, dir.toLowerCase(Locale.ROOT))) {
                for (JsonNode p : Nodes.items(rule, "ports")) {
                    if (p instanceof ObjectNode port) {
                        Nodes.defaultText(port, "protocol", "TCP");
                    }
                }
            }
        }
        if (Nodes.items(spec, "policyTypes").isEmpty()) {
            ArrayNode types = spec.putArray("policyTypes");
            types.add("Ingress");
            if (!Nodes.items(spec, "egress").isEmpty()) {
                types.add("Egress");
            }
        }
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs =
                new ArrayList<>(
                        LabelValidation.selector(
                                spec.get("podSelector"), SPEC.child("podSelector")));
        errs.addAll(rules(spec, "ingress", "from"));
        errs.addAll(rules(spec, "egress", "to"));
        List<String> types = Nodes.strings(spec, "policyTypes");
        for (int i = 0; i < types.size(); i++) {
            if (!POLICY_TYPES.contains(types.get(i))) {
                errs.add(
                        FieldError.notSupported(
                                SPEC.child("policyTypes").index(i).toString(),
                                types.get(i),
                                POLICY_TYPES));
            }
        }
        if (types.size() > 2) {
            errs.add(
                    FieldError.invalid(
                            SPEC.child("policyTypes").toString(),
                            BadValue.of(spec.get("policyTypes")),
                            "may not specify more than two policyTypes"));
        }
        return errs;
    }

    private static List<FieldError> rules(JsonNode spec, String direction, String peersField) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> rules = Nodes.items(spec, direction);
        for (int i = 0; i < rules.size(); i++) {
            FieldPath rp = SPEC.child(direction).index(i);
            List<JsonNode> ports = Nodes.items(rules.get(i), "ports");
            for (int j = 0; j < ports.size(); j++) {
                FieldPath pp = rp.child("ports").index(j);
                JsonNode port = ports.get(j);
                if (Nodes.has(port, "protocol")) {
                    errs.addAll(FieldChecks.protocol(port, pp));
                }
                if (Nodes.has(port, "port")) {
                    errs.addAll(ServiceStrategy.portNumOrName(port.get("port"), pp.child("port")));
                }
            }
            List<JsonNode> peers = Nodes.items(rules.get(i), peersField);
            for (int j = 0; j < peers.size(); j++) {
                errs.addAll(peer(peers.get(j), rp.child(peersField).index(j)));
            }
        }
        return errs;
    }

    private static List<FieldError> peer(JsonNode peer, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        int selectors = 0;
        if (Nodes.has(peer, "podSelector")) {
            selectors++;
            errs.addAll(
                    LabelValidation.selector(peer.get("podSelector"), path.child("podSelector")));
        }
        if (Nodes.has(peer, "namespaceSelector")) {
            selectors++;
            errs.addAll(
                    LabelValidation.selector(
                            peer.get("namespaceSelector"), path.child("namespaceSelector")));
        }
        if (Nodes.has(peer, "ipBlock")) {
            if (selectors > 0) {
                errs.add(
                        FieldError.forbidden(
                                path.toString(), "may not specify both ipBlock and another peer"));
            }
            selectors++;
            String cidr = Nodes.text(peer.get("ipBlock"), "cidr");
            if (cidr.isEmpty()) {
                errs.add(FieldError.required(path.child("ipBlock", "cidr").toString(), ""));
            } else {
                errs.addAll(IpAddresses.cidr(cidr, path.child("ipBlock", "cidr")));
            }
        }
        if (selectors == 0) {
            errs.add(FieldError.required(path.toString(), "must specify a peer"));
        }
        return errs;
    }
}
