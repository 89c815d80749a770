package io.kubepekko.api.admission.priority;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.InformedObjects;
import io.kubepekko.api.admission.MutatingAdmission;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;

/**
 * kube's Priority admission plugin, over the PriorityClasses its informer follows ({@link
 * InformedObjects}). Mutating: a pod created gets {@code spec.priority} and {@code
 * spec.preemptionPolicy} from the class its {@code priorityClassName} names, or, naming none, from
 * the {@code globalDefault} class (whose name it then gets too), else priority 0 and {@code
 * PreemptLowerPriority}; a class not found, or a priority or policy the pod gives that differs from
 * the class's, refuses it with kube's 403. A pod updated without them keeps the stored ones.
 * Refusing: a PriorityClass created or updated as {@code globalDefault} while another class is the
 * default is refused, as kube allows only one.
 *
 * <p>Subresources are not judged, as in kube.
 */
public final class PriorityAdmission implements MutatingAdmission, WriteAdmission {

    static final GroupResource PODS = new GroupResource("", "pods");
    static final GroupResource PRIORITY_CLASSES =
            new GroupResource("scheduling.k8s.io", "priorityclasses");

    private static final String PREEMPT_LOWER_PRIORITY = "PreemptLowerPriority";

    private final InformedObjects classes;

    public PriorityAdmission(InformedObjects classes) {
        this.classes = classes;
    }

    @Override
    public Mutation admit(AdmissionRequest request) {
        ObjectNode pod = request.object();
        if (!request.subresource().isEmpty()
                || !request.resource().equals(PODS)
                || pod == null
                || !pod.path("spec").isObject()) {
            return new Mutation.Admitted(pod);
        }
        return switch (request.operation()) {
            case CREATE -> create(request, pod);
            case UPDATE -> new Mutation.Admitted(keepStored(pod, request.oldObject()));
            case DELETE -> new Mutation.Admitted(pod);
        };
    }

    private Mutation create(AdmissionRequest request, ObjectNode pod) {
        JsonNode spec = pod.path("spec");
        String className = spec.path("priorityClassName").asText("");
        String resolvedName;
        long priority;
        String policy;
        if (className.isEmpty()) {
            Optional<JsonNode> global = defaultClass();
            resolvedName = global.map(PriorityAdmission::name).orElse("");
            priority = global.map(pc -> pc.path("value").asLong(0)).orElse(0L);
            policy = global.map(PriorityAdmission::policy).orElse(PREEMPT_LOWER_PRIORITY);
        } else {
            Optional<JsonNode> found = classes.get(className);
            if (found.isEmpty()) {
                return new Mutation.Refused(
                        request.forbidden(
                                "no PriorityClass with name " + className + " was found"));
            }
            resolvedName = className;
            priority = found.get().path("value").asLong(0);
            policy = policy(found.get());
        }
        JsonNode given = spec.path("priority");
        if (!given.isMissingNode() && !given.isNull() && !sameNumber(given, priority)) {
            return new Mutation.Refused(
                    request.forbidden(
                            "the integer value of priority ("
                                    + given.asText()
                                    + ") must not be provided in pod spec; priority admission"
                                    + " controller computed "
                                    + priority
                                    + " from the given PriorityClass name"));
        }
        String givenPolicy = spec.path("preemptionPolicy").asText("");
        if (policy != null && !givenPolicy.isEmpty() && !givenPolicy.equals(policy)) {
            return new Mutation.Refused(
                    request.forbidden(
                            "the string value of PreemptionPolicy ("
                                    + givenPolicy
                                    + ") must not be provided in pod spec; priority admission"
                                    + " controller computed "
                                    + policy
                                    + " from the given PriorityClass name"));
        }
        ObjectNode out = pod.deepCopy();
        ObjectNode outSpec = (ObjectNode) out.get("spec");
        if (!resolvedName.isEmpty()) {
            outSpec.put("priorityClassName", resolvedName);
        }
        outSpec.put("priority", priority);
        if (policy != null) {
            outSpec.put("preemptionPolicy", policy);
        }
        return new Mutation.Admitted(out);
    }

    /** kube keeps the priority it set on create when an update leaves it out. */
    private static ObjectNode keepStored(ObjectNode pod, ObjectNode old) {
        if (old == null) {
            return pod;
        }
        JsonNode oldSpec = old.path("spec");
        JsonNode spec = pod.path("spec");
        boolean priority = absent(spec, "priority") && !absent(oldSpec, "priority");
        boolean policy = absent(spec, "preemptionPolicy") && !absent(oldSpec, "preemptionPolicy");
        if (!priority && !policy) {
            return pod;
        }
        ObjectNode out = pod.deepCopy();
        ObjectNode outSpec = (ObjectNode) out.get("spec");
        if (priority) {
            outSpec.set("priority", oldSpec.get("priority").deepCopy());
        }
        if (policy) {
            outSpec.set("preemptionPolicy", oldSpec.get("preemptionPolicy").deepCopy());
        }
        return out;
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        if (!request.subresource().isEmpty()
                || !request.resource().equals(PRIORITY_CLASSES)
                || request.operation() == Operation.DELETE
                || request.object() == null
                || !request.object().path("globalDefault").asBoolean(false)) {
            return Optional.empty();
        }
        Optional<JsonNode> global = defaultClass();
        if (global.isEmpty()) {
            return Optional.empty();
        }
        String current = name(global.get());
        if (request.operation() == Operation.CREATE || !current.equals(name(request.object()))) {
            return Optional.of(
                    request.forbidden(
                            "PriorityClass "
                                    + current
                                    + " is already marked as default. Only one default can exist"));
        }
        return Optional.empty();
    }

    /**
     * The {@code globalDefault} class; of several (created in a race), the lowest value's, as kube
     * picks.
     */
    private Optional<JsonNode> defaultClass() {
        JsonNode best = null;
        for (JsonNode pc : classes.all()) {
            if (pc.path("globalDefault").asBoolean(false)
                    && (best == null
                            || best.path("value").asLong(0) > pc.path("value").asLong(0))) {
                best = pc;
            }
        }
        return Optional.ofNullable(best);
    }

    /** The class's preemption policy, or null when it has none (kube's nil pointer). */
    private static String policy(JsonNode pc) {
        String policy = pc.path("preemptionPolicy").asText("");
        return policy.isEmpty() ? null : policy;
    }

    private static String name(JsonNode object) {
        return object.path("metadata").path("name").asText("");
    }

    private static boolean absent(JsonNode spec, String field) {
        JsonNode value = spec.path(field);
        return value.isMissingNode() || value.isNull();
    }

    private static boolean sameNumber(JsonNode given, long expected) {
        return given.isIntegralNumber() && given.canConvertToLong() && given.asLong() == expected;
    }
}
