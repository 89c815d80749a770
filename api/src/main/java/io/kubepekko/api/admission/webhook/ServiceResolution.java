package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntUnaryOperator;

/**
 * Where a webhook's {@code clientConfig.service} is called, as kube-apiserver's endpoint resolver
 * finds it (the one {@code --enable-aggregator-routing=true} selects): the Service's port numbered
 * as the reference's port, then a ready address of the Service's endpoints serving that port's
 * name. kube's default resolver dials the Service's ClusterIP instead, which only works where a
 * service proxy routes it; this server's host has none, so the endpoints are always used. The
 * endpoints are read from the Service's {@code Endpoints} object (kube 1.35 reads its
 * EndpointSlices, which this server does not serve; their ready endpoints are the same addresses).
 * The TLS name the webhook's certificate must carry stays {@code <name>.<namespace>.svc}, as
 * kube's.
 */
public final class ServiceResolution {
    private ServiceResolution() {}

    /** What the reference resolved to. */
    public sealed interface Result {}

    /** A ready endpoint: {@code https://host:port}. */
    public record Resolved(String host, int port) implements Result {
        /** The URL of {@code path} at this endpoint (IPv6 addresses bracketed). */
        public String url(String path) {
            String h = host.contains(":") ? "[" + host + "]" : host;
            return "https://" + h + ":" + port + pathOf(path);
        }
    }

    /** Nowhere to call: kube's error text (the dial error of its webhook client). */
    public record Unresolved(String reason) implements Result {}

    /** The DNS name kube calls and verifies: {@code <name>.<namespace>.svc}. */
    public static String serverName(Webhook.ServiceRef ref) {
        return ref.name() + "." + ref.namespace() + ".svc";
    }

    /** The URL kube's webhook client posts to (and names in its errors). */
    public static String url(Webhook.ServiceRef ref) {
        return "https://" + serverName(ref) + ":" + ref.port() + pathOf(ref.path());
    }

    /**
     * Resolves {@code ref} given its Service and the Service's Endpoints as stored (either may be
     * absent).
     *
     * @param random picks one of {@code n} candidates ({@code n -> 0..n-1}); kube picks at random
     */
    public static Result resolve(
            Webhook.ServiceRef ref,
            Optional<JsonNode> service,
            Optional<JsonNode> endpoints,
            IntUnaryOperator random) {
        if (service.isEmpty()) {
            return new Unresolved("service \"" + ref.name() + "\" not found");
        }
        JsonNode spec = service.get().path("spec");
        String type = spec.path("type").asText("ClusterIP");
        if (!type.equals("ClusterIP") && !type.equals("NodePort") && !type.equals("LoadBalancer")) {
            return new Unresolved("unsupported service type \"" + type + "\"");
        }
        JsonNode servicePort = null;
        for (JsonNode p : spec.path("ports")) {
            if (p.path("port").asInt(-1) == ref.port()) {
                servicePort = p;
                break;
            }
        }
        if (servicePort == null) {
            return new Unresolved(
                    "no service port " + ref.port() + " found for service \"" + ref.name() + "\"");
        }
        String portName = servicePort.path("name").asText("");
        List<Resolved> ready = new ArrayList<>();
        JsonNode subsets = endpoints.map(e -> e.path("subsets")).orElse(MissingNode.getInstance());
        for (JsonNode subset : subsets) {
            for (JsonNode p : subset.path("ports")) {
                if (!p.path("name").asText("").equals(portName) || !p.has("port")) {
                    continue;
                }
                // notReadyAddresses are kube's endpoints whose Ready condition is false: skipped.
                for (JsonNode a : subset.path("addresses")) {
                    String ip = a.path("ip").asText("");
                    if (!ip.isEmpty()) {
                        ready.add(new Resolved(ip, p.path("port").asInt()));
                    }
                }
            }
        }
        if (ready.isEmpty()) {
            return new Unresolved("no endpoints available for service \"" + ref.name() + "\"");
        }
        return ready.get(random.applyAsInt(ready.size()));
    }

    private static String pathOf(String path) {
        if (path == null || path.isEmpty()) {
            return "/";
        }
        return path.startsWith("/") ? path : "/" + path;
    }
}
