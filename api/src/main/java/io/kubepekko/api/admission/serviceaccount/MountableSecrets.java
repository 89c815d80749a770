package io.kubepekko.api.admission.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code limitSecretReferences}, for an account annotated {@code
 * kubernetes.io/enforce-mountable-secrets} with a true value (Go's {@code ParseBool}): the pod's
 * secret volumes, its init containers' and containers' {@code secretKeyRef} variables and its image
 * pull secrets must be among the account's {@code secrets} and {@code imagePullSecrets}; the first
 * that is not is the refusal, in kube's words.
 */
final class MountableSecrets {

    private MountableSecrets() {}

    static final String ANNOTATION = "kubernetes.io/enforce-mountable-secrets";

    static Optional<String> violation(JsonNode account, JsonNode pod) {
        String flag = account.path("metadata").path("annotations").path(ANNOTATION).asText("");
        if (!goTrue(flag)) {
            return Optional.empty();
        }
        String accountName = account.path("metadata").path("name").asText("");
        Set<String> mountable = names(account.path("secrets"));
        JsonNode spec = pod.path("spec");
        for (JsonNode volume : spec.path("volumes")) {
            JsonNode secret = volume.path("secret");
            if (secret.isObject()) {
                String name = secret.path("secretName").asText("");
                if (!mountable.contains(name)) {
                    return Optional.of(
                            "volume with secret.secretName=\""
                                    + name
                                    + "\" is not allowed because service account "
                                    + accountName
                                    + " does not reference that secret");
                }
            }
        }
        for (String[] list :
                new String[][] {
                    {"initContainers", "init container "}, {"containers", "container "}
                }) {
            for (JsonNode container : spec.path(list[0])) {
                for (JsonNode env : container.path("env")) {
                    JsonNode ref = env.path("valueFrom").path("secretKeyRef");
                    if (ref.isObject() && !mountable.contains(ref.path("name").asText(""))) {
                        return Optional.of(
                                list[1]
                                        + container.path("name").asText("")
                                        + " with envVar "
                                        + env.path("name").asText("")
                                        + " referencing secret.secretName=\""
                                        + ref.path("name").asText("")
                                        + "\" is not allowed because service account "
                                        + accountName
                                        + " does not reference that secret");
                    }
                }
            }
        }
        Set<String> pullSecrets = names(account.path("imagePullSecrets"));
        int i = 0;
        for (JsonNode ref : spec.path("imagePullSecrets")) {
            String name = ref.path("name").asText("");
            if (!pullSecrets.contains(name)) {
                return Optional.of(
                        "imagePullSecrets["
                                + i
                                + "].name=\""
                                + name
                                + "\" is not allowed because service account "
                                + accountName
                                + " does not reference that imagePullSecret");
            }
            i++;
        }
        return Optional.empty();
    }

    private static Set<String> names(JsonNode refs) {
        Set<String> names = new HashSet<>();
        for (JsonNode ref : refs) {
            names.add(ref.path("name").asText(""));
        }
        return names;
    }

    /** Go's {@code strconv.ParseBool} true values. */
    private static boolean goTrue(String value) {
        return switch (value) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            default -> false;
        };
    }
}
