package io.kubepekko.api.admission.quota;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.registry.ResourceType;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The resources quota tracks, with their evaluators: pods, services and claims by their own rules,
 * the object counts of configmaps, secrets, replication controllers and resource quotas under their
 * old names too, and, as kube's admission makes one for any other resource it is asked about
 * (kube's {@code generic.NewObjectCountEvaluator}), the object count {@code
 * count/<resource>.<group>} of every other namespaced stored resource but kube's ignored ones.
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

    /**
     * Resources quota never counts (kube's {@code install.DefaultIgnoredResources}; the others of
     * its list are not stored, so they are never asked about).
     */
    private static final Set<GroupResource> IGNORED = Set.of(new GroupResource("", "events"));

    /** The object count evaluators made for the other resources, once each. */
    private static final Map<GroupResource, QuotaEvaluator> COUNTS = new ConcurrentHashMap<>();

    /**
     * The evaluator of {@code resource}: its own, else an object count, or empty for a resource
     * quota ignores.
     */
    public static Optional<QuotaEvaluator> of(GroupResource resource) {
        QuotaEvaluator own = EVALUATORS.get(resource);
        if (own != null) {
            return Optional.of(own);
        }
        if (IGNORED.contains(resource)) {
            return Optional.empty();
        }
        return Optional.of(COUNTS.computeIfAbsent(resource, r -> new CountEvaluator(r, null)));
    }

    /**
     * The resources of {@code stored} quota follows (its informers list and watch them): the ones
     * with their own evaluators and every other namespaced one it does not ignore, in name order.
     */
    public static List<GroupResource> followed(List<ResourceType> stored) {
        Set<GroupResource> followed = new TreeSet<>(BY_NAME);
        followed.addAll(EVALUATORS.keySet());
        for (ResourceType type : stored) {
            if (type.namespaced() && !IGNORED.contains(type.groupResource())) {
                followed.add(type.groupResource());
            }
        }
        return List.copyOf(followed);
    }

    private static final Comparator<GroupResource> BY_NAME =
            Comparator.comparing(GroupResource::toString);

    /** Every resource with an evaluator of its own. */
    public static List<GroupResource> tracked() {
        return EVALUATORS.keySet().stream()
                .sorted((a, b) -> a.toString().compareTo(b.toString()))
                .toList();
    }
}
