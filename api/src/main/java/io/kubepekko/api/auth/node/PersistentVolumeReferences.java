package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * What a PersistentVolume relates to in the node graph, read from its JSON as kube's {@code
 * VisitPVSecretNames}: the claim it is bound to ({@code spec.claimRef}) and the secrets a kubelet
 * needs to mount it. Controller-side CSI secrets are not the kubelet's business and are left out.
 */
public final class PersistentVolumeReferences {

    /**
     * Sources whose {@code secretRef} may name its namespace and otherwise means the claim's
     * namespace (older volumes were written without one).
     */
    private static final String[] CLAIM_NAMESPACE_DEFAULT = {
        "cephfs", "flexVolume", "rbd", "scaleIO", "iscsi"
    };

    /** Sources whose {@code secretRef} carries its own namespace. */
    private static final String[] OWN_NAMESPACE = {"cinder", "storageos"};

    private static final String[] CSI_NODE_SECRETS = {
        "nodePublishSecretRef", "nodeStageSecretRef", "nodeExpandSecretRef"
    };

    private PersistentVolumeReferences() {}

    /** The claim {@code pv} is bound to, if any. */
    public static Optional<ObjectRef> claim(JsonNode pv) {
        JsonNode ref = pv.path("spec").path("claimRef");
        String name = ref.path("name").asText("");
        if (!ref.isObject() || name.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(
                new ObjectRef(
                        GraphObject.PERSISTENT_VOLUME_CLAIM,
                        ref.path("namespace").asText(""),
                        name));
    }

    /** The secrets a kubelet reads to mount {@code pv}. */
    public static Set<ObjectRef> secrets(JsonNode pv) {
        JsonNode spec = pv.path("spec");
        String claimNs = spec.path("claimRef").path("namespace").asText("");
        Set<ObjectRef> out = new LinkedHashSet<>();
        JsonNode azure = spec.path("azureFile");
        String azureNs = azure.path("secretNamespace").asText("");
        add(out, azureNs.isEmpty() ? claimNs : azureNs, azure.path("secretName"));
        for (String source : CLAIM_NAMESPACE_DEFAULT) {
            JsonNode ref = spec.path(source).path("secretRef");
            String ns = ref.path("namespace").asText("");
            add(out, ns.isEmpty() ? claimNs : ns, ref.path("name"));
        }
        for (String source : OWN_NAMESPACE) {
            JsonNode ref = spec.path(source).path("secretRef");
            add(out, ref.path("namespace").asText(""), ref.path("name"));
        }
        for (String field : CSI_NODE_SECRETS) {
            JsonNode ref = spec.path("csi").path(field);
            add(out, ref.path("namespace").asText(""), ref.path("name"));
        }
        return out;
    }

    private static void add(Set<ObjectRef> out, String ns, JsonNode name) {
        if (name.isTextual() && !name.asText().isEmpty()) {
            out.add(new ObjectRef(GraphObject.SECRET, ns, name.asText()));
        }
    }
}
