package io.kubepekko.api.admission.quota;

import io.kubepekko.api.GroupResource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The resources quota tracks, with their evaluators: pods, services and claims by their own rules,
 * and the object counts of configmaps, secrets, replication controllers and resource quotas. A
 * {@code count/<resource>.<group>} of another resource is not tracked yet: it limits nothing.
 */
public final class QuotaEvaluators {
    private QuotaEvaluators() {}

    private static final Map<GroupResource, QuotaEvaluator> EVALUATORS =
            List.<QuotaEvaluator>of(
                            new PodEvaluator(),
                            new ServiceEvaluator(),
                            new ClaimEvaluator(),
                            new CountEvaluator(new GroupResource("", "configmaps"), "configmaps"),
                            new CountEvaluator(new GroupResource("", "secrets"), "secrets"),
                            new CountEvaluator(
                                    new GroupResource("", "replicationcontrollers"),
                                    "replicationcontrollers"),
                            new CountEvaluator(
                                    new GroupResource("", "resourcequotas"), "resourcequotas"))
                    .stream()
                    .collect(
                            Collectors.toUnmodifiableMap(
                                    QuotaEvaluator::resource, Function.identity()));

    /** The evaluator of {@code resource}, or empty when quota does not track it. */
    public static Optional<QuotaEvaluator> of(GroupResource resource) {
        return Optional.ofNullable(EVALUATORS.get(resource));
    }

    /** Every tracked resource. */
    public static List<GroupResource> tracked() {
        return EVALUATORS.keySet().stream()
                .sorted((a, b) -> a.toString().compareTo(b.toString()))
                .toList();
    }
}
