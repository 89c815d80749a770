package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * networking.k8s.io Ingresses: rules or a default backend, hosts, typed absolute paths, one backend
 * each.
 */
public final class IngressStrategy implements Strategy {

    static final List<String> PATH_TYPES = List.of("Exact", "ImplementationSpecific", "Prefix");
    private static final FieldPath SPEC = FieldPath.of("spec");

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        JsonNode spec = obj.path("spec");
        List<FieldError> errs = new ArrayList<>();
        List<JsonNode> rules = Nodes.items(spec, "rules");
        if (rules.isEmpty() && !Nodes.has(spec, "defaultBackend")) {
            errs.add(
                    FieldError.invalid(
                            SPEC.toString(),
                            BadValue.of(spec.get("rules")),
                            "either `defaultBackend` or `rules` must be specified"));
        }
        if (Nodes.has(spec, "defaultBackend")) {
            errs.addAll(backend(spec.get("defaultBackend"), SPEC.child("defaultBackend")));
        }
        for (int i = 0; i < rules.size(); i++) {
            errs.addAll(rule(rules.get(i), SPEC.child("rules").index(i)));
        }
        String className = Nodes.text(spec, "ingressClassName");
        if (Nodes.has(spec, "ingressClassName")) {
            NameValidation.dns1123Subdomain(className)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    SPEC.child("ingressClassName").toString(),
                                                    className,
                                                    m)));
        }
        return errs;
    }

    @Override
    public JsonNode initialStatus(ObjectNode obj) {
        return LoadBalancerStatus.initial();
    }

    private static List<FieldError> rule(JsonNode rule, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String host = Nodes.text(rule, "host");
        if (!host.isEmpty()) {
            if (IpAddresses.isIp(host)) {
                errs.add(
                        FieldError.invalid(
                                path.child("host").toString(),
                                host,
                                "must be a DNS name, not an IP address"));
            }
            List<String> msgs =
                    host.contains("*")
                            ? NameValidation.wildcardDns1123Subdomain(host)
                            : NameValidation.dns1123Subdomain(host);
            msgs.forEach(m -> errs.add(FieldError.invalid(path.child("host").toString(), host, m)));
        }
        if (!Nodes.has(rule, "http")) {
            return errs;
        }
        FieldPath paths = path.child("http", "paths");
        List<JsonNode> items = Nodes.items(rule.get("http"), "paths");
        if (items.isEmpty()) {
            errs.add(FieldError.required(paths.toString(), ""));
        }
        for (int i = 0; i < items.size(); i++) {
            errs.addAll(httpPath(items.get(i), paths.index(i)));
        }
        return errs;
    }

    private static List<FieldError> httpPath(JsonNode p, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(p, "pathType");
        String value = Nodes.text(p, "path");
        if (type.isEmpty()) {
            errs.add(
                    FieldError.required(
                            path.child("pathType").toString(), "pathType must be specified"));
        } else if (!PATH_TYPES.contains(type)) {
            errs.add(FieldError.notSupported(path.child("pathType").toString(), type, PATH_TYPES));
        } else if (!value.startsWith("/")
                && (type.equals("Exact") || type.equals("Prefix") || !value.isEmpty())) {
            errs.add(
                    FieldError.invalid(
                            path.child("path").toString(), value, "must be an absolute path"));
        }
        errs.addAll(backend(p.path("backend"), path.child("backend")));
        return errs;
    }

    private static List<FieldError> backend(JsonNode b, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        boolean hasService = Nodes.has(b, "service");
        boolean hasResource = Nodes.has(b, "resource");
        if (hasService && hasResource) {
            errs.add(
                    FieldError.invalid(
                            path.toString(), "", "cannot set both resource and service backends"));
            return errs;
        }
        if (hasResource) {
            return errs;
        }
        if (!hasService) {
            errs.add(
                    FieldError.invalid(
                            path.toString(), "", "resource or service backend is required"));
            return errs;
        }
        JsonNode svc = b.get("service");
        FieldPath sp = path.child("service");
        String name = Nodes.text(svc, "name");
        if (name.isEmpty()) {
            errs.add(FieldError.required(sp.child("name").toString(), ""));
        } else {
            NameValidation.dns1035Label(name)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    sp.child("name").toString(), name, m)));
        }
        JsonNode port = svc.path("port");
        String portName = Nodes.text(port, "name");
        long number = port.path("number").asLong(0);
        FieldPath pp = sp.child("port");
        if (!portName.isEmpty() && number != 0) {
            errs.add(
                    FieldError.invalid(
                            pp.toString(),
                            BadValue.of(port),
                            "cannot set both port name & port number"));
        } else if (!portName.isEmpty()) {
            NameValidation.portName(portName)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    pp.child("name").toString(), portName, m)));
        } else if (number != 0) {
            NameValidation.portNumber(number)
                    .forEach(
                            m ->
                                    errs.add(
                                            FieldError.invalid(
                                                    pp.child("number").toString(), number, m)));
        } else {
            errs.add(FieldError.required(pp.toString(), "port name or number is required"));
        }
        return errs;
    }
}
