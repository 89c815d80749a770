package io.kubepekko.api.admission.quota;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.registry.ResourceType;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The resources quota tracks, with their evaluators: pods, services and claims by their own rules,
 * the object counts of configmaps, secrets, replication controllers and resource quotas under their
 * old names too, and, as kube's admission makes one for any other resource it is asked about
 * (kube's {@code generic.NewObjectCountEvaluator}), the object count {@code
 * count/<resource>.<group>} of every other namespaced stored resource but kube's ignored ones; and
 * which of them the quotas in effect need followed ({@link #needed}).
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
     * The resources a quota limiting {@code names} (quota resource names: {@code cpu}, {@code
     * count/configmaps}...) counts the objects of, among {@code stored}: each namespaced one quota
     * does not ignore whose evaluator charges one of the names, and always {@code resourcequotas}
     * (its objects are the quotas). Every other resource contributes nothing to such a quota
     * whatever its objects, so an informer need not follow it; in name order.
     */
    public static SortedSet<GroupResource> needed(
            Collection<String> names, List<ResourceType> stored) {
        SortedSet<GroupResource> needed = new TreeSet<>(BY_NAME);
        needed.add(QUOTAS);
        Set<String> limited = Set.copyOf(names);
        for (ResourceType type : stored) {
            if (!type.namespaced()) {
                continue;
            }
            Optional<QuotaEvaluator> evaluator = of(type.groupResource());
            if (evaluator.isPresent() && !evaluator.get().matchingResources(limited).isEmpty()) {
                needed.add(type.groupResource());
            }
        }
        return needed;
    }

    /** The ResourceQuotas, which every quota source follows. */
    public static final GroupResource QUOTAS = new GroupResource("", "resourcequotas");

    private static final Comparator<GroupResource> BY_NAME =
            Comparator.comparing(GroupResource::toString);

    /** Every resource with an evaluator of its own. */
    public static List<GroupResource> tracked() {
        return EVALUATORS.keySet().stream()
                .sorted((a, b) -> a.toString().compareTo(b.toString()))
                .toList();
    }
}
