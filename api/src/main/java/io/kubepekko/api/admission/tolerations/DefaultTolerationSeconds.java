package io.kubepekko.api.admission.tolerations;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.MutatingAdmission;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;

/**
 * kube's DefaultTolerationSeconds admission plugin: a pod created or updated that does not tolerate
 * the {@code node.kubernetes.io/not-ready} or {@code node.kubernetes.io/unreachable} {@code
 * NoExecute} taint gets a toleration of it for {@code --default-not-ready-toleration-seconds} or
 * {@code --default-unreachable-toleration-seconds} (300 each by default), so that it is evicted
 * from a failed node only after that long. A toleration with no key (every taint) or no effect
 * (every effect) counts as tolerating, as in kube; subresources are not judged.
 *
 * @param notReadySeconds the not-ready toleration's {@code tolerationSeconds}
 * @param unreachableSeconds the unreachable toleration's {@code tolerationSeconds}
 */
public record DefaultTolerationSeconds(long notReadySeconds, long unreachableSeconds)
        implements MutatingAdmission {

    /** kube's defaults of both flags. */
    public static final long DEFAULT_SECONDS = 300;

    public static final String NOT_READY = "node.kubernetes.io/not-ready";
    public static final String UNREACHABLE = "node.kubernetes.io/unreachable";

    private static final GroupResource PODS = new GroupResource("", "pods");
    private static final String NO_EXECUTE = "NoExecute";

    @Override
    public Mutation admit(AdmissionRequest request) {
        ObjectNode pod = request.object();
        if (request.operation() == Operation.DELETE
                || !request.resource().equals(PODS)
                || !request.subresource().isEmpty()
                || pod == null
                || !pod.path("spec").isObject()) {
            return new Mutation.Admitted(pod);
        }
        JsonNode tolerations = pod.path("spec").path("tolerations");
        boolean notReady = false;
        boolean unreachable = false;
        for (JsonNode toleration : tolerations) {
            String key = toleration.path("key").asText("");
            String effect = toleration.path("effect").asText("");
            if (effect.isEmpty() || effect.equals(NO_EXECUTE)) {
                notReady |= key.isEmpty() || key.equals(NOT_READY);
                unreachable |= key.isEmpty() || key.equals(UNREACHABLE);
            }
        }
        if (notReady && unreachable) {
            return new Mutation.Admitted(pod);
        }
        ObjectNode out = pod.deepCopy();
        ObjectNode spec = (ObjectNode) out.get("spec");
        ArrayNode list =
                spec.path("tolerations").isArray()
                        ? (ArrayNode) spec.get("tolerations")
                        : spec.putArray("tolerations");
        if (!notReady) {
            add(list, NOT_READY, notReadySeconds);
        }
        if (!unreachable) {
            add(list, UNREACHABLE, unreachableSeconds);
        }
        return new Mutation.Admitted(out);
    }

    private static void add(ArrayNode list, String key, long seconds) {
        list.addObject()
                .put("key", key)
                .put("operator", "Exists")
                .put("effect", NO_EXECUTE)
                .put("tolerationSeconds", seconds);
    }
}
