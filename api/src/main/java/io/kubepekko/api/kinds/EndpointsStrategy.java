package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;

/** Endpoints: every subset has addresses (valid IPs) and valid ports. */
public final class EndpointsStrategy implements Strategy {

    @Override
    public void applyDefaults(ObjectNode obj) {
        for (JsonNode subset : Nodes.items(obj, "subsets")) {
            for (JsonNode p : Nodes.items(subset, "ports")) {
                if (p instanceof ObjectNode port) {
                    Nodes.defaultText(port, "protocol", "TCP");
                }
            }
        }
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> subsets = Nodes.items(obj, "subsets");
        for (int i = 0; i < subsets.size(); i++) {
            JsonNode ss = subsets.get(i);
            FieldPath idx = FieldPath.of("subsets").index(i);
            List<JsonNode> addresses = Nodes.items(ss, "addresses");
            List<JsonNode> notReady = Nodes.items(ss, "notReadyAddresses");
            if (addresses.isEmpty() && notReady.isEmpty()) {
                errs.add(
                        FieldError.required(
                                idx.toString(), "must specify `addresses` or `notReadyAddresses`"));
            }
            for (int a = 0; a < addresses.size(); a++) {
                errs.addAll(address(addresses.get(a), idx.child("addresses").index(a)));
            }
            for (int a = 0; a < notReady.size(); a++) {
                errs.addAll(address(notReady.get(a), idx.child("notReadyAddresses").index(a)));
            }
            List<JsonNode> ports = Nodes.items(ss, "ports");
            for (int p = 0; p < ports.size(); p++) {
                errs.addAll(port(ports.get(p), ports.size() > 1, idx.child("ports").index(p)));
            }
        }
        return errs;
    }

    private static List<FieldError> address(JsonNode a, FieldPath path) {
        List<FieldError> errs =
                new ArrayList<>(IpAddresses.ip(Nodes.text(a, "ip"), path.child("ip")));
        String hostname = Nodes.text(a, "hostname");
        if (!hostname.isEmpty()) {
            NameValidation.dns1123Label(hostname)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    path.child("hostname").toString(),
                                                    hostname,
                                                    m)));
        }
        return errs;
    }

    private static List<FieldError> port(JsonNode p, boolean requireName, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.text(p, "name");
        if (requireName && name.isEmpty()) {
            errs.add(FieldError.required(path.child("name").toString(), ""));
        } else if (!name.isEmpty()) {
            NameValidation.dns1123Label(name)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    path.child("name").toString(), name, m)));
        }
        long number = p.path("port").asLong(0);
        NameValidation.portNumber(number)
                .forEach(
                        m ->
                                errs.add(
                                        FieldError.invalid(
                                                path.child("port").toString(), number, m)));
        errs.addAll(FieldChecks.protocol(p, path));
        if (Nodes.has(p, "appProtocol")) {
            errs.addAll(
                    LabelValidation.labelKey(
                            Nodes.text(p, "appProtocol"), path.child("appProtocol")));
        }
        return errs;
    }
}
