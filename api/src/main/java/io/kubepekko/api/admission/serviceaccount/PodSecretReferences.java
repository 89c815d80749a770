package io.kubepekko.api.admission.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * Whether a pod references secrets, as kube's {@code VisitPodSecretNames} over all containers sees
 * them: image pull secrets, the containers' (init and ephemeral ones too) {@code
 * envFrom[].secretRef} and {@code env[].valueFrom.secretKeyRef}, and the volumes that name a secret
 * (secret, projected secret sources, and the secret references of azureFile, cephfs, cinder,
 * flexVolume, rbd, scaleIO, iscsi, storageos and csi volumes).
 */
final class PodSecretReferences {

    private PodSecretReferences() {}

    private static final List<String> SECRET_REF_VOLUMES =
            List.of("cephfs", "cinder", "flexVolume", "rbd", "scaleIO", "iscsi", "storageos");

    static boolean any(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        if (spec.path("imagePullSecrets").size() > 0) {
            return true;
        }
        for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
            for (JsonNode container : spec.path(list)) {
                for (JsonNode from : container.path("envFrom")) {
                    if (from.path("secretRef").isObject()) {
                        return true;
                    }
                }
                for (JsonNode env : container.path("env")) {
                    if (env.path("valueFrom").path("secretKeyRef").isObject()) {
                        return true;
                    }
                }
            }
        }
        for (JsonNode volume : spec.path("volumes")) {
            if (volume.path("secret").isObject()
                    || !volume.path("azureFile").path("secretName").asText("").isEmpty()
                    || volume.path("csi").path("nodePublishSecretRef").isObject()) {
                return true;
            }
            for (String kind : SECRET_REF_VOLUMES) {
                if (volume.path(kind).path("secretRef").isObject()) {
                    return true;
                }
            }
            for (JsonNode source : volume.path("projected").path("sources")) {
                if (source.path("secret").isObject()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a volume projects a service-account token. */
    static boolean projectsToken(JsonNode pod) {
        for (JsonNode volume : pod.path("spec").path("volumes")) {
            for (JsonNode source : volume.path("projected").path("sources")) {
                if (source.path("serviceAccountToken").isObject()) {
                    return true;
                }
            }
        }
        return false;
    }
}
