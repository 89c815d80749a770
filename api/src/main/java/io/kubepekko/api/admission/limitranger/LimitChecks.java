package io.kubepekko.api.admission.limitranger;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * LimitRanger's checks of one LimitRange ({@code PodValidateLimitFunc}, {@code
 * PersistentVolumeClaimValidateLimitFunc}): every violation, in item order, then (for a Container
 * item) container by container, init containers after, each resource's min, max, then ratio.
 */
final class LimitChecks {
    private LimitChecks() {}

    /** The violations of {@code pod} against the items of one LimitRange. */
    static List<String> pod(List<LimitRangeItem> items, JsonNode pod) {
        List<String> errs = new ArrayList<>();
        JsonNode spec = pod.path("spec");
        for (LimitRangeItem item : items) {
            if (item.type().equals(LimitRangeItem.CONTAINER)) {
                for (String field : new String[] {"containers", "initContainers"}) {
                    for (JsonNode c : spec.path(field)) {
                        check(
                                item,
                                LimitRangeItem.amounts(c.path("resources").get("requests")),
                                LimitRangeItem.amounts(c.path("resources").get("limits")),
                                errs);
                    }
                }
            } else if (item.type().equals(LimitRangeItem.POD)) {
                check(item, PodResources.requests(spec), PodResources.limits(spec), errs);
            }
        }
        return errs;
    }

    /**
     * The violations of {@code claim} against the items of one LimitRange: its storage requests
     * against a PersistentVolumeClaim item's min and max (a claim's limits are not user input).
     */
    static List<String> claim(List<LimitRangeItem> items, JsonNode claim) {
        List<String> errs = new ArrayList<>();
        Map<String, Amount> requests =
                LimitRangeItem.amounts(claim.path("spec").path("resources").get("requests"));
        for (LimitRangeItem item : items) {
            if (item.type().equals(LimitRangeItem.PERSISTENT_VOLUME_CLAIM)) {
                String type = item.type();
                item.min()
                        .forEach(
                                (k, v) ->
                                        LimitConstraints.min(type, k, v, requests, Map.of())
                                                .ifPresent(errs::add));
                item.max()
                        .forEach(
                                (k, v) ->
                                        LimitConstraints.maxRequest(type, k, v, requests)
                                                .ifPresent(errs::add));
            }
        }
        return errs;
    }

    private static void check(
            LimitRangeItem item,
            Map<String, Amount> requests,
            Map<String, Amount> limits,
            List<String> errs) {
        String type = item.type();
        item.min().forEach((k, v) -> add(LimitConstraints.min(type, k, v, requests, limits), errs));
        item.max().forEach((k, v) -> add(LimitConstraints.max(type, k, v, requests, limits), errs));
        item.maxLimitRequestRatio()
                .forEach((k, v) -> add(LimitConstraints.ratio(type, k, v, requests, limits), errs));
    }

    private static void add(Optional<String> violation, List<String> errs) {
        violation.ifPresent(errs::add);
    }
}
