package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * What a pod gives its node access to, read from the pod's JSON as kube's graph does ({@code
 * VisitPodSecretNames}, {@code VisitPodConfigmapNames}, the claim and service-account edges): the
 * objects a kubelet must read to run the pod. References are immutable in a pod's spec once it is
 * bound, except the resource claims a template produced, which appear in the status.
 */
public final class PodReferences {

    /** kube's annotation on a mirror pod (a static pod's API copy). */
    public static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    private static final String[] CONTAINER_LISTS = {
        "initContainers", "containers", "ephemeralContainers"
    };

    /** Volume sources whose secret is a {@code secretRef} object with a name. */
    private static final String[] SECRET_REF_VOLUMES = {
        "cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos"
    };

    /**
     * The paths of a pod {@link #of} and the node graph read (its name, namespace and node besides
     * the references): a reader that parses only these gets the same answers.
     */
    public static final Set<String> FIELDS =
            Set.of(
                    "metadata.name",
                    "metadata.namespace",
                    "metadata.annotations",
                    "spec.nodeName",
                    "spec.serviceAccountName",
                    "spec.imagePullSecrets",
                    "spec.initContainers.env",
                    "spec.initContainers.envFrom",
                    "spec.containers.env",
                    "spec.containers.envFrom",
                    "spec.ephemeralContainers.env",
                    "spec.ephemeralContainers.envFrom",
                    "spec.volumes",
                    "spec.resourceClaims",
                    "status.resourceClaimStatuses",
                    "status.extendedResourceClaimStatus");

    private PodReferences() {}

    /**
     * The objects {@code pod} references, in its namespace. A mirror pod references nothing: a node
     * creates mirror pods itself and must not gain access to other objects by doing so.
     */
    public static Set<ObjectRef> of(JsonNode pod) {
        if (isMirror(pod)) {
            return new LinkedHashSet<>();
        }
        return all(pod);
    }

    /** Whether {@code pod} is a mirror pod. */
    public static boolean isMirror(JsonNode pod) {
        return pod.path("metadata").path("annotations").has(MIRROR_ANNOTATION);
    }

    /** Every object {@code pod} references, whether or not it is a mirror pod. */
    public static Set<ObjectRef> all(JsonNode pod) {
        JsonNode meta = pod.path("metadata");
        String ns = meta.path("namespace").asText("");
        Set<ObjectRef> refs = new LinkedHashSet<>();
        JsonNode spec = pod.path("spec");
        add(refs, GraphObject.SERVICE_ACCOUNT, ns, spec.path("serviceAccountName"));
        for (JsonNode ref : spec.path("imagePullSecrets")) {
            add(refs, GraphObject.SECRET, ns, ref.path("name"));
        }
        for (String list : CONTAINER_LISTS) {
            for (JsonNode c : spec.path(list)) {
                containerRefs(refs, ns, c);
            }
        }
        String podName = meta.path("name").asText("");
        for (JsonNode v : spec.path("volumes")) {
            volumeRefs(refs, ns, podName, v);
        }
        resourceClaims(refs, ns, spec, pod.path("status"));
        return refs;
    }

    private static void containerRefs(Set<ObjectRef> refs, String ns, JsonNode c) {
        for (JsonNode from : c.path("envFrom")) {
            add(refs, GraphObject.SECRET, ns, from.path("secretRef").path("name"));
            add(refs, GraphObject.CONFIG_MAP, ns, from.path("configMapRef").path("name"));
        }
        for (JsonNode env : c.path("env")) {
            JsonNode valueFrom = env.path("valueFrom");
            add(refs, GraphObject.SECRET, ns, valueFrom.path("secretKeyRef").path("name"));
            add(refs, GraphObject.CONFIG_MAP, ns, valueFrom.path("configMapKeyRef").path("name"));
        }
    }

    private static void volumeRefs(Set<ObjectRef> refs, String ns, String podName, JsonNode v) {
        add(refs, GraphObject.SECRET, ns, v.path("secret").path("secretName"));
        add(refs, GraphObject.SECRET, ns, v.path("azureFile").path("secretName"));
        for (String source : SECRET_REF_VOLUMES) {
            add(refs, GraphObject.SECRET, ns, v.path(source).path("secretRef").path("name"));
        }
        add(refs, GraphObject.SECRET, ns, v.path("csi").path("nodePublishSecretRef").path("name"));
        add(refs, GraphObject.CONFIG_MAP, ns, v.path("configMap").path("name"));
        for (JsonNode source : v.path("projected").path("sources")) {
            add(refs, GraphObject.SECRET, ns, source.path("secret").path("name"));
            add(refs, GraphObject.CONFIG_MAP, ns, source.path("configMap").path("name"));
        }
        add(
                refs,
                GraphObject.PERSISTENT_VOLUME_CLAIM,
                ns,
                v.path("persistentVolumeClaim").path("claimName"));
        // A generic ephemeral volume's claim is named after the pod and the volume.
        if (v.path("ephemeral").isObject()) {
            String volume = v.path("name").asText("");
            if (!podName.isEmpty() && !volume.isEmpty()) {
                refs.add(
                        new ObjectRef(
                                GraphObject.PERSISTENT_VOLUME_CLAIM, ns, podName + "-" + volume));
            }
        }
    }

    /**
     * A pod claim names its ResourceClaim directly, or through a template whose generated claim the
     * status records once created; a claim not yet created grants nothing.
     */
    private static void resourceClaims(
            Set<ObjectRef> refs, String ns, JsonNode spec, JsonNode status) {
        for (JsonNode claim : spec.path("resourceClaims")) {
            JsonNode direct = claim.path("resourceClaimName");
            if (direct.isTextual()) {
                add(refs, GraphObject.RESOURCE_CLAIM, ns, direct);
                continue;
            }
            String podClaim = claim.path("name").asText("");
            for (JsonNode s : status.path("resourceClaimStatuses")) {
                if (s.path("name").asText("").equals(podClaim)) {
                    add(refs, GraphObject.RESOURCE_CLAIM, ns, s.path("resourceClaimName"));
                }
            }
        }
        add(
                refs,
                GraphObject.RESOURCE_CLAIM,
                ns,
                status.path("extendedResourceClaimStatus").path("resourceClaimName"));
    }

    private static void add(Set<ObjectRef> refs, GraphObject type, String ns, JsonNode name) {
        if (name.isTextual() && !name.asText().isEmpty()) {
            refs.add(new ObjectRef(type, ns, name.asText()));
        }
    }
}
