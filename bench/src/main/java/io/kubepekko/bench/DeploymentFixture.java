package io.kubepekko.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * The apply benchmark's object: an apps/v1 Deployment of about 40 leaf fields (labels, annotations,
 * selector, rolling-update strategy, and a pod template with two containers that have images,
 * ports, env, resources and probes), and its split among {@link #MANAGERS} field managers, each
 * owning a disjoint part.
 *
 * <p>Part 0 is a valid Deployment on its own (selector, template labels, the containers' names and
 * images), so its manager can create the object; parts 1–4 add the rest. Every part carries one
 * annotation, {@code bench.kubepekko.io/revision-<k>}, set by its manager only: the field a
 * measured request changes, so that every request is a real change (a re-apply of equal values
 * would write nothing). The whole object is the union of the parts, with the other revisions fixed
 * at {@code "0"}.
 *
 * <p>Bodies are {@link BodyTemplate}s with the slots {@code ${name}}, {@code ${namespace}}, {@code
 * ${revision}} and, for an update, {@code ${resourceVersion}}. Container ports name their {@code
 * protocol} although it defaults to TCP: it is part of the ports list's key, and our server (unlike
 * kube-apiserver, which fills a key's schema default) treats a port applied without it as a
 * different item from the stored, defaulted one, answering a re-apply with 422 Duplicate value.
 */
final class DeploymentFixture {

    static final int MANAGERS = 5;
    static final String REVISION = "bench.kubepekko.io/revision-";

    /** Leaves that only say which object this is; the benchmark's field count leaves them out. */
    static final int IDENTITY_LEAVES = 4;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String WEB = "web";
    private static final String METRICS = "metrics";

    private DeploymentFixture() {}

    /** The namespace of pool object {@code i}. */
    static String namespace(int i, int namespaces) {
        return "apply-" + (i % namespaces);
    }

    /** The item path of a Deployment. */
    static String path(String namespace, String name) {
        return "/apis/apps/v1/namespaces/" + namespace + "/deployments/" + name;
    }

    /** The collection path for a create. */
    static String collection(String namespace) {
        return "/apis/apps/v1/namespaces/" + namespace + "/deployments";
    }

    /** The whole Deployment, with {@code ${revision}} as the value of revision-0. */
    static ObjectNode whole() {
        ObjectNode d = identity();
        for (int k = 0; k < MANAGERS; k++) {
            addPart(d, k, k == 0 ? "${revision}" : "0");
        }
        return d;
    }

    /**
     * The whole Deployment as a PUT sends it: with {@code ${resourceVersion}} as a precondition.
     */
    static ObjectNode wholeForUpdate() {
        ObjectNode d = whole();
        ((ObjectNode) d.get("metadata")).put("resourceVersion", "${resourceVersion}");
        return d;
    }

    /**
     * Manager {@code k}'s part, with {@code ${revision}} as the value of its revision annotation.
     */
    static ObjectNode part(int k) {
        ObjectNode d = identity();
        addPart(d, k, "${revision}");
        return d;
    }

    /** A JSON merge patch that sets revision-0. */
    static ObjectNode revisionMergePatch() {
        ObjectNode patch = NODES.objectNode();
        patch.putObject("metadata").putObject("annotations").put(REVISION + 0, "${revision}");
        return patch;
    }

    /** The leaves (scalar values, including each list item's key fields) of a JSON tree. */
    static int leaves(JsonNode node) {
        if (node.isValueNode()) {
            return 1;
        }
        int n = 0;
        for (Iterator<JsonNode> children = node.elements(); children.hasNext(); ) {
            n += leaves(children.next());
        }
        return n;
    }

    /** Slot values for pool object {@code name} in {@code namespace}. */
    static Map<String, String> values(String namespace, String name, String revision) {
        return Map.of("namespace", namespace, "name", name, "revision", revision);
    }

    private static ObjectNode identity() {
        ObjectNode d = NODES.objectNode();
        d.put("apiVersion", "apps/v1");
        d.put("kind", "Deployment");
        d.putObject("metadata").put("name", "${name}").put("namespace", "${namespace}");
        return d;
    }

    private static void addPart(ObjectNode d, int k, String revision) {
        ObjectNode metadata = (ObjectNode) d.get("metadata");
        metadata.withObjectProperty("annotations").put(REVISION + k, revision);
        ObjectNode spec = d.withObjectProperty("spec");
        ObjectNode template = spec.withObjectProperty("template");
        ObjectNode podSpec = template.withObjectProperty("spec");
        switch (k) {
            case 0 -> { // the skeleton: enough for a valid Deployment
                metadata.withObjectProperty("labels").put("app", WEB);
                spec.put("replicas", 3);
                spec.withObjectProperty("selector")
                        .withObjectProperty("matchLabels")
                        .put("app", WEB);
                ObjectNode strategy =
                        spec.withObjectProperty("strategy").put("type", "RollingUpdate");
                strategy.withObjectProperty("rollingUpdate")
                        .put("maxSurge", "25%")
                        .put("maxUnavailable", 0);
                template.withObjectProperty("metadata")
                        .withObjectProperty("labels")
                        .put("app", WEB)
                        .put("tier", "frontend");
                container(podSpec, WEB).put("image", "registry.example.com/shop/web:1.25.3");
                container(podSpec, METRICS)
                        .put("image", "registry.example.com/obs/exporter:0.15.0");
            }
            case 1 -> { // ownership labels and rollout policy
                metadata.withObjectProperty("labels")
                        .put("tier", "frontend")
                        .put("team", "payments");
                spec.put("revisionHistoryLimit", 5);
                podSpec.put("terminationGracePeriodSeconds", 20);
            }
            case 2 -> { // the web container's interface
                ObjectNode web = container(podSpec, WEB);
                port(web, "http", 8080);
                ArrayNode env = web.putArray("env");
                env.addObject().put("name", "LOG_LEVEL").put("value", "info");
                env.addObject().put("name", "MODE").put("value", "production");
            }
            case 3 -> { // the web container's resources and readiness
                ObjectNode web = container(podSpec, WEB);
                ObjectNode resources = web.putObject("resources");
                resources.putObject("requests").put("cpu", "250m").put("memory", "256Mi");
                resources.putObject("limits").put("cpu", "1").put("memory", "512Mi");
                ObjectNode probe = web.putObject("readinessProbe").put("periodSeconds", 10);
                probe.putObject("httpGet").put("path", "/healthz").put("port", 8080);
            }
            case 4 -> { // the metrics sidecar's configuration
                ObjectNode metrics = container(podSpec, METRICS);
                port(metrics, "metrics", 9100);
                metrics.putObject("resources")
                        .putObject("requests")
                        .put("cpu", "50m")
                        .put("memory", "64Mi");
                ObjectNode probe =
                        metrics.putObject("livenessProbe").put("initialDelaySeconds", 10);
                probe.putObject("tcpSocket").put("port", 9100);
            }
            default -> throw new IllegalArgumentException("no part " + k);
        }
    }

    private static void port(ObjectNode container, String name, int number) {
        container
                .putArray("ports")
                .addObject()
                .put("name", name)
                .put("containerPort", number)
                .put("protocol", "TCP");
    }

    /** The container with this name, appended to the pod spec's list when not there yet. */
    private static ObjectNode container(ObjectNode podSpec, String name) {
        ArrayNode containers = podSpec.withArrayProperty("containers");
        for (JsonNode c : containers) {
            if (name.equals(c.path("name").asText())) {
                return (ObjectNode) c;
            }
        }
        return containers.addObject().put("name", name);
    }
}
