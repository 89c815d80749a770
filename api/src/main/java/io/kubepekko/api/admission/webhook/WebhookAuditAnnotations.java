package io.kubepekko.api.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The audit annotations kube's webhook dispatchers add to a request's audit event: for every
 * mutating webhook called, whether it changed the object ({@code
 * mutation.webhook.admission.k8s.io/round_R_index_I}) and, at level Request and above, the patch it
 * applied ({@code patch.webhook.admission.k8s.io/…}); for a webhook whose call failed under {@code
 * failurePolicy: Ignore}, {@code failed-open.mutation.…} or {@code
 * failed-open.validating.webhook.admission.k8s.io/round_0_index_I} naming it; and each webhook's
 * own {@code auditAnnotations} under {@code <webhook name>/<key>}. A mutating webhook's index is
 * its place among all the mutating webhooks configured (in call order), a validating webhook's its
 * place among those the request is sent to, as in kube.
 */
public final class WebhookAuditAnnotations {

    /**
     * One annotation; {@code requestLevel}: recorded only when the request is audited at level
     * Request or above (a patch carries the object's content), else at Metadata and above.
     */
    public record Annotation(String key, String value, boolean requestLevel) {}

    static final String MUTATION = "mutation.webhook.admission.k8s.io/";
    static final String PATCH = "patch.webhook.admission.k8s.io/";
    static final String FAILED_OPEN_MUTATION = "failed-open." + MUTATION;
    static final String FAILED_OPEN_VALIDATING = "failed-open.validating.webhook.admission.k8s.io/";

    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private WebhookAuditAnnotations() {}

    /** Whether the mutating webhook {@code hook}, called, changed the object. */
    public static Annotation mutation(int round, int index, Webhook hook, boolean mutated) {
        ObjectNode value = F.objectNode();
        value.put("configuration", hook.configuration());
        value.put("webhook", hook.name());
        value.put("mutated", mutated);
        return new Annotation(MUTATION + suffix(round, index), Json.goString(value), false);
    }

    /**
     * The JSON patch {@code hook} answered, as kube records it: each operation's members in
     * alphabetical order (a Go map), their values as sent.
     */
    public static Annotation patch(int round, int index, Webhook hook, ArrayNode operations) {
        ArrayNode sorted = F.arrayNode();
        for (JsonNode op : operations) {
            Map<String, JsonNode> members = new TreeMap<>();
            op.properties().forEach(e -> members.put(e.getKey(), e.getValue()));
            ObjectNode o = sorted.addObject();
            members.forEach(o::set);
        }
        ObjectNode value = F.objectNode();
        value.put("configuration", hook.configuration());
        value.put("webhook", hook.name());
        value.set("patch", sorted);
        value.put("patchType", "JSONPatch");
        return new Annotation(PATCH + suffix(round, index), Json.goString(value), true);
    }

    /** {@code hook}'s call failed and its failure policy let the request go on. */
    public static Annotation failedOpen(int round, int index, Webhook hook) {
        String prefix = hook.mutating() ? FAILED_OPEN_MUTATION : FAILED_OPEN_VALIDATING;
        return new Annotation(prefix + suffix(round, index), hook.name(), false);
    }

    /** The annotations {@code hook} asked for in its answer, under its name. */
    public static List<Annotation> own(Webhook hook, Map<String, String> auditAnnotations) {
        List<Annotation> out = new ArrayList<>(auditAnnotations.size());
        auditAnnotations.forEach(
                (key, value) -> out.add(new Annotation(hook.name() + "/" + key, value, false)));
        return out;
    }

    private static String suffix(int round, int index) {
        return "round_" + round + "_index_" + index;
    }
}
