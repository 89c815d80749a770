package io.kubepekko.api.admission.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Supplier;

/**
 * The ServiceAccount plugin's token volume, as kube's {@code mountServiceAccountToken} with bound
 * tokens: a projected volume {@code kube-api-access-<5 random characters>} of a token (kube's
 * {@code WarnOnlyBoundTokenExpirationSeconds}, 3607 s, at {@code token}), the {@code ca.crt} of the
 * {@code kube-root-ca.crt} ConfigMap and the pod's namespace, mounted read-only at {@link
 * #MOUNT_PATH} in every init container and container that mounts nothing there (ephemeral
 * containers are left alone). A pod that already has a volume named {@code kube-api-access-…} keeps
 * it and only gets the mounts.
 */
final class TokenVolume {

    private TokenVolume() {}

    static final String MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
    static final String VOLUME_PREFIX = "kube-api-access-";

    /** kube's bound token lifetime kube-apiserver extends for legacy clients (1 h + 7 s). */
    static final int EXPIRATION_SECONDS = 3607;

    /** Mutates {@code pod} (a copy the plugin owns). */
    static void mount(ObjectNode pod, Supplier<String> suffix) {
        ObjectNode spec = object(pod, "spec");
        String volumeName = null;
        for (JsonNode volume : spec.path("volumes")) {
            String name = volume.path("name").asText("");
            if (name.startsWith(VOLUME_PREFIX)) {
                volumeName = name;
                break;
            }
        }
        boolean hasVolume = volumeName != null;
        if (!hasVolume) {
            volumeName = VOLUME_PREFIX + suffix.get();
        }
        boolean needsVolume = false;
        for (String list : new String[] {"initContainers", "containers"}) {
            for (JsonNode container : spec.path(list)) {
                if (container.isObject() && !mountsTokenPath(container)) {
                    ObjectNode mount = array((ObjectNode) container, "volumeMounts").addObject();
                    mount.put("name", volumeName);
                    mount.put("readOnly", true);
                    mount.put("mountPath", MOUNT_PATH);
                    needsVolume = true;
                }
            }
        }
        if (!hasVolume && needsVolume) {
            array(spec, "volumes").add(volume(volumeName));
        }
    }

    private static boolean mountsTokenPath(JsonNode container) {
        for (JsonNode mount : container.path("volumeMounts")) {
            if (MOUNT_PATH.equals(mount.path("mountPath").asText())) {
                return true;
            }
        }
        return false;
    }

    /** The volume, with the {@code defaultMode} kube's reads show (420, 0644). */
    static ObjectNode volume(String name) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode volume = f.objectNode();
        volume.put("name", name);
        ObjectNode projected = volume.putObject("projected");
        ArrayNode sources = projected.putArray("sources");
        ObjectNode token = sources.addObject().putObject("serviceAccountToken");
        token.put("expirationSeconds", EXPIRATION_SECONDS);
        token.put("path", "token");
        ObjectNode configMap = sources.addObject().putObject("configMap");
        configMap.put("name", "kube-root-ca.crt");
        ObjectNode item = configMap.putArray("items").addObject();
        item.put("key", "ca.crt");
        item.put("path", "ca.crt");
        ObjectNode namespace =
                sources.addObject().putObject("downwardAPI").putArray("items").addObject();
        namespace.put("path", "namespace");
        ObjectNode fieldRef = namespace.putObject("fieldRef");
        fieldRef.put("apiVersion", "v1");
        fieldRef.put("fieldPath", "metadata.namespace");
        projected.put("defaultMode", 420);
        return volume;
    }

    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode node = parent.get(field);
        return node instanceof ObjectNode o ? o : parent.putObject(field);
    }

    private static ArrayNode array(ObjectNode parent, String field) {
        JsonNode node = parent.get(field);
        return node instanceof ArrayNode a ? a : parent.putArray(field);
    }
}
