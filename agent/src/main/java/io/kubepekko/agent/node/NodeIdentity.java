package io.kubepekko.agent.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.GoPlatform;
import io.kubepekko.agent.flags.AgentSettings;
import io.kubepekko.api.meta.Json;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The Node the agent registers, as the kubelet's {@code initialNode}
 * (pkg/kubelet/kubelet_node_status.go) builds it: named by {@code --hostname-override} or the host
 * name; labelled with the host name, OS and architecture (stable and {@code beta.kubernetes.io/}
 * forms, the kubelet still sets both), then {@code --node-labels} over them; {@code
 * spec.providerID}; {@code spec.unschedulable} with its {@code
 * node.kubernetes.io/unschedulable:NoSchedule} taint when it registers unschedulable; the
 * controller-managed attach/detach annotation (the kubelet's default).
 *
 * @param name the Node's name (lower-cased)
 * @param os {@code GOOS}
 * @param arch {@code GOARCH}
 * @param labels {@code --node-labels}
 * @param providerId {@code --provider-id}
 * @param schedulable {@code --register-schedulable}
 */
public record NodeIdentity(
        String name,
        String os,
        String arch,
        Map<String, String> labels,
        Optional<String> providerId,
        boolean schedulable) {

    static final String LABEL_HOSTNAME = "kubernetes.io/hostname";
    static final String LABEL_OS = "kubernetes.io/os";
    static final String LABEL_ARCH = "kubernetes.io/arch";
    static final String LEGACY_LABEL_OS = "beta.kubernetes.io/os";
    static final String LEGACY_LABEL_ARCH = "beta.kubernetes.io/arch";
    static final String ATTACH_DETACH_ANNOTATION =
            "volumes.kubernetes.io/controller-managed-attach-detach";

    /**
     * The labels the kubelet re-applies to a Node it finds already registered ({@code
     * updateDefaultLabels}).
     */
    static final List<String> DEFAULT_LABELS =
            List.of(
                    LABEL_HOSTNAME,
                    "topology.kubernetes.io/zone",
                    "topology.kubernetes.io/region",
                    "node.kubernetes.io/instance-type",
                    LABEL_OS,
                    LABEL_ARCH,
                    "failure-domain.beta.kubernetes.io/zone",
                    "failure-domain.beta.kubernetes.io/region",
                    "beta.kubernetes.io/instance-type",
                    LEGACY_LABEL_OS,
                    LEGACY_LABEL_ARCH);

    public NodeIdentity {
        labels = Map.copyOf(labels);
    }

    /** The identity from the agent's flags on this host. */
    public static NodeIdentity of(AgentSettings s, String hostname) {
        return new NodeIdentity(
                s.hostnameOverride().orElse(hostname).trim().toLowerCase(Locale.ROOT),
                GoPlatform.os(),
                GoPlatform.arch(),
                s.nodeLabels(),
                s.providerId(),
                s.registerSchedulable());
    }

    /** The labels of the Node: the defaults, with {@code --node-labels} winning. */
    public Map<String, String> allLabels() {
        Map<String, String> l = new LinkedHashMap<>();
        l.put(LEGACY_LABEL_ARCH, arch);
        l.put(LEGACY_LABEL_OS, os);
        l.put(LABEL_ARCH, arch);
        l.put(LABEL_HOSTNAME, name);
        l.put(LABEL_OS, os);
        l.putAll(labels);
        return l;
    }

    /** The Node object to create. */
    public ObjectNode initialNode() {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("apiVersion", "v1");
        n.put("kind", "Node");
        ObjectNode meta = n.putObject("metadata");
        meta.put("name", name);
        ObjectNode l = meta.putObject("labels");
        allLabels().forEach(l::put);
        meta.putObject("annotations").put(ATTACH_DETACH_ANNOTATION, "true");
        ObjectNode spec = n.putObject("spec");
        providerId.ifPresent(p -> spec.put("providerID", p));
        if (!schedulable) {
            spec.put("unschedulable", true);
            spec.putArray("taints")
                    .addObject()
                    .put("key", "node.kubernetes.io/unschedulable")
                    .put("effect", "NoSchedule");
        }
        return n;
    }

    /**
     * What the kubelet reconciles on a Node that was already registered: the default labels it
     * would set (a changed value rewritten, an empty one removed) and the attach/detach annotation.
     * Empty when the existing Node needs nothing; otherwise a merge patch of its metadata.
     */
    public Optional<ObjectNode> adoptionPatch(JsonNode existing) {
        Map<String, String> initial = allLabels();
        JsonNode have = existing.path("metadata").path("labels");
        ObjectNode labelPatch = Json.MAPPER.createObjectNode();
        for (String label : DEFAULT_LABELS) {
            if (!initial.containsKey(label)) {
                continue;
            }
            String want = initial.get(label);
            if (want.isEmpty()) {
                if (have.has(label)) {
                    labelPatch.putNull(label);
                }
            } else if (!want.equals(have.path(label).asText(null))) {
                labelPatch.put(label, want);
            }
        }
        boolean annotationWrong =
                !"true"
                        .equals(
                                existing.path("metadata")
                                        .path("annotations")
                                        .path(ATTACH_DETACH_ANNOTATION)
                                        .asText(null));
        if (labelPatch.isEmpty() && !annotationWrong) {
            return Optional.empty();
        }
        ObjectNode p = Json.MAPPER.createObjectNode();
        ObjectNode meta = p.putObject("metadata");
        if (!labelPatch.isEmpty()) {
            meta.set("labels", labelPatch);
        }
        if (annotationWrong) {
            meta.putObject("annotations").put(ATTACH_DETACH_ANNOTATION, "true");
        }
        return Optional.of(p);
    }
}
