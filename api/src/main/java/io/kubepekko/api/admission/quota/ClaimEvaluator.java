package io.kubepekko.api.admission.quota;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.Operation;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's PersistentVolumeClaim evaluator: a claim counts {@code persistentvolumeclaims} and its
 * storage request (rounded up to a whole byte) as {@code requests.storage}, each also under its
 * storage class ({@code <class>.storageclass.storage.k8s.io/...}). Updates are charged: a claim's
 * request can grow.
 */
final class ClaimEvaluator implements QuotaEvaluator {

    static final GroupResource CLAIMS = new GroupResource("", "persistentvolumeclaims");
    private static final String CLASS_SUFFIX = ".storageclass.storage.k8s.io/";
    private static final Set<String> RESOURCES =
            Set.of(QuotaEvaluator.countName(CLAIMS), "persistentvolumeclaims", "requests.storage");

    @Override
    public GroupResource resource() {
        return CLAIMS;
    }

    @Override
    public Set<String> readFields() {
        Set<String> fields = new TreeSet<>(IDENTITY);
        fields.add("metadata.annotations");
        fields.add("metadata.resourceVersion");
        fields.add("spec.storageClassName");
        fields.add("spec.resources");
        return fields;
    }

    @Override
    public boolean handles(Operation operation, String subresource) {
        return operation == Operation.CREATE
                || (operation == Operation.UPDATE && subresource.isEmpty());
    }

    @Override
    public Set<String> matchingResources(Set<String> hard) {
        Set<String> matching = new TreeSet<>();
        for (String name : hard) {
            if (RESOURCES.contains(name)
                    || name.endsWith(CLASS_SUFFIX + "persistentvolumeclaims")
                    || name.endsWith(CLASS_SUFFIX + "requests.storage")) {
                matching.add(name);
            }
        }
        return matching;
    }

    @Override
    public SortedMap<String, QuotaAmount> usage(JsonNode claim, Instant now) {
        SortedMap<String, QuotaAmount> usage = new TreeMap<>();
        usage.put(QuotaEvaluator.countName(CLAIMS), QuotaAmount.ONE);
        usage.put("persistentvolumeclaims", QuotaAmount.ONE);
        String storageClass = storageClass(claim);
        if (!storageClass.isEmpty()) {
            usage.put(storageClass + CLASS_SUFFIX + "persistentvolumeclaims", QuotaAmount.ONE);
        }
        QuotaAmount.of(claim.path("spec").path("resources").path("requests").get("storage"))
                .ifPresent(
                        request -> {
                            QuotaAmount rounded =
                                    new QuotaAmount(
                                            request.value().setScale(0, RoundingMode.CEILING),
                                            request.like());
                            usage.put("requests.storage", rounded);
                            if (!storageClass.isEmpty()) {
                                usage.put(
                                        storageClass + CLASS_SUFFIX + "requests.storage", rounded);
                            }
                        });
        return usage;
    }

    /** The claim's class: the beta annotation, else {@code spec.storageClassName}. */
    private static String storageClass(JsonNode claim) {
        String annotated =
                claim.path("metadata")
                        .path("annotations")
                        .path("volume.beta.kubernetes.io/storage-class")
                        .asText("");
        return annotated.isEmpty()
                ? claim.path("spec").path("storageClassName").asText("")
                : annotated;
    }
}
