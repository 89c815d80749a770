package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Kubernetes' defaulting of pod specs ({@code SetDefaults_PodSpec}, {@code SetDefaults_Container}
 * and friends), shared by pods and every pod template. Each function fills only unset fields, so it
 * is safe to run on every write.
 */
public final class PodDefaults {
    private PodDefaults() {}

    public static final String TERMINATION_MESSAGE_PATH = "/dev/termination-log";
    public static final long TERMINATION_GRACE_PERIOD_SECONDS = 30;
    public static final String DEFAULT_SCHEDULER = "default-scheduler";

    /** 0644, the default file mode of secret and configMap volumes. */
    public static final int DEFAULT_VOLUME_MODE = 420;

    /** Defaults a pod template's {@code template.spec} (creating the spec when absent). */
    public static void defaultPodTemplate(ObjectNode template) {
        defaultPodSpec(Nodes.obj(template, "spec"));
    }

    /** Defaults a pod spec: pod-level fields, then every container, volume and probe. */
    public static void defaultPodSpec(ObjectNode spec) {
        Nodes.defaultText(spec, "restartPolicy", "Always");
        Nodes.defaultText(spec, "dnsPolicy", "ClusterFirst");
        Nodes.defaultText(spec, "schedulerName", DEFAULT_SCHEDULER);
        Nodes.defaultInt(spec, "terminationGracePeriodSeconds", TERMINATION_GRACE_PERIOD_SECONDS);
        Nodes.defaultBool(spec, "enableServiceLinks", true);
        if (!Nodes.has(spec, "securityContext")) {
            spec.putObject("securityContext");
        }
        for (String list : new String[] {"initContainers", "containers", "ephemeralContainers"}) {
            for (JsonNode c : Nodes.items(spec, list)) {
                if (c instanceof ObjectNode container) {
                    defaultContainer(container);
                }
            }
        }
        for (JsonNode v : Nodes.items(spec, "volumes")) {
            if (v instanceof ObjectNode volume) {
                defaultVolume(volume);
            }
        }
    }

    /**
     * Container defaults: termination message, pull policy, port protocols, requests from limits,
     * probes.
     */
    public static void defaultContainer(ObjectNode c) {
        Nodes.defaultText(c, "terminationMessagePath", TERMINATION_MESSAGE_PATH);
        Nodes.defaultText(c, "terminationMessagePolicy", "File");
        Nodes.defaultText(c, "imagePullPolicy", defaultImagePullPolicy(Nodes.text(c, "image")));
        defaultContainerPorts(c);
        defaultRequestsFromLimits(c);
        for (String probe : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
            if (c.get(probe) instanceof ObjectNode p) {
                defaultProbe(p);
            }
        }
        for (JsonNode env : Nodes.items(c, "env")) {
            if (Nodes.at(env, "valueFrom", "fieldRef") instanceof ObjectNode fieldRef) {
                Nodes.defaultText(fieldRef, "apiVersion", "v1");
            }
        }
    }

    /**
     * {@code Always} for {@code :latest} or an untagged, undigested image; {@code IfNotPresent}
     * otherwise.
     */
    public static String defaultImagePullPolicy(String image) {
        return "latest".equals(imageTag(image)) ? "Always" : "IfNotPresent";
    }

    /**
     * The tag of an image reference; "latest" when neither tag nor digest is given, "" when only a
     * digest is.
     */
    static String imageTag(String image) {
        if (image == null || image.isBlank()) {
            return "";
        }
        String ref = image;
        boolean digested = false;
        int at = ref.indexOf('@');
        if (at >= 0) {
            digested = true;
            ref = ref.substring(0, at);
        }
        int slash = ref.lastIndexOf('/');
        int colon = ref.lastIndexOf(':');
        if (colon > slash) {
            return ref.substring(colon + 1);
        }
        return digested ? "" : "latest";
    }

    public static void defaultContainerPorts(ObjectNode c) {
        for (JsonNode p : Nodes.items(c, "ports")) {
            if (p instanceof ObjectNode port) {
                Nodes.defaultText(port, "protocol", "TCP");
            }
        }
    }

    /** A limit without a request makes the request equal to the limit, per resource. */
    public static void defaultRequestsFromLimits(ObjectNode c) {
        if (!(c.get("resources") instanceof ObjectNode resources)) {
            return;
        }
        JsonNode limits = resources.get("limits");
        if (limits == null || !limits.isObject() || limits.isEmpty()) {
            return;
        }
        ObjectNode requests = Nodes.obj(resources, "requests");
        limits.properties()
                .iterator()
                .forEachRemaining(
                        e -> {
                            if (!requests.has(e.getKey())) {
                                requests.set(e.getKey(), e.getValue().deepCopy());
                            }
                        });
    }

    public static void defaultProbe(ObjectNode p) {
        Nodes.defaultInt(p, "timeoutSeconds", 1);
        Nodes.defaultInt(p, "periodSeconds", 10);
        Nodes.defaultInt(p, "successThreshold", 1);
        Nodes.defaultInt(p, "failureThreshold", 3);
        if (p.get("httpGet") instanceof ObjectNode http) {
            Nodes.defaultText(http, "path", "/");
            Nodes.defaultText(http, "scheme", "HTTP");
        }
    }

    /** Secret, configMap, downwardAPI and projected volumes get file mode 0644. */
    public static void defaultVolume(ObjectNode v) {
        for (String source : new String[] {"secret", "configMap", "downwardAPI", "projected"}) {
            if (v.get(source) instanceof ObjectNode s) {
                Nodes.defaultInt(s, "defaultMode", DEFAULT_VOLUME_MODE);
            }
        }
        if (v.get("emptyDir") != null && v.get("emptyDir").isNull()) {
            v.putObject("emptyDir");
        }
    }
}
