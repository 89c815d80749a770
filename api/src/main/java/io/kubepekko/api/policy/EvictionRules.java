package io.kubepekko.api.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import io.kubepekko.api.store.Preconditions;
import io.kubepekko.api.store.SubresourceRoute;
import io.kubepekko.api.store.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decisions of {@code POST pods/{name}/eviction}, as kube-apiserver's {@code EvictionREST}
 * makes them: which pods are deleted without looking at budgets, which budget guards a pod, whether
 * it allows one more disruption (and the budget's status after granting it), and the answers when
 * it does not.
 */
public final class EvictionRules {
    private EvictionRules() {}

    /** The kind the subresource takes and discovery names. */
    public static final GroupVersionKind V1 = SubresourceRoute.Evicts.GVK;

    /**
     * The older version kube-apiserver still accepts as a body ({@code AcceptsGroupVersion}),
     * though policy/v1beta1 is no longer served.
     */
    public static final GroupVersionKind V1BETA1 =
            new GroupVersionKind("policy", "v1beta1", "Eviction");

    /**
     * kube's {@code MaxDisruptedPodSize}: more granted evictions than this not yet seen by the
     * controller refuse further ones.
     */
    public static final int MAX_DISRUPTED_POD_SIZE = 2000;

    static final String VIOLATES =
            "Cannot evict pod as it would violate the pod's disruption budget.";

    private static final String DISRUPTION_BUDGET_CAUSE = "DisruptionBudget";

    /** The resource kube names in the budget's 403s (singular, as it spells it). */
    private static final GroupResource BUDGET = new GroupResource("policy", "poddisruptionbudget");

    /** What the eviction does once the pod is read. */
    public sealed interface Plan {}

    /** No budget guards the pod: delete it. */
    public record NoBudget() implements Plan {}

    /** More than one budget selects the pod: kube refuses with 500. */
    public record TooManyBudgets(ApiStatus status) implements Plan {}

    /**
     * The pod is not Ready and its removal disrupts nothing ({@code AlwaysAllow}, or the budget is
     * healthy): delete it, on condition that it is still the version read.
     */
    public record DeleteUnhealthy(String budget) implements Plan {}

    /** The budget must grant one disruption first ({@link #checkAndDecrement}). */
    public record Decrement(ObjectNode budget) implements Plan {}

    /** What a budget says to one more disruption. */
    public sealed interface Check {}

    /** Refused with {@code status} (429 or 403). */
    public record Refused(ApiStatus status) implements Check {}

    /**
     * Granted; {@code budget} is the budget with the disruption counted, to be written as its
     * status (for a dry run, nothing is written).
     */
    public record Granted(ObjectNode budget) implements Check {}

    /**
     * kube's {@code canIgnorePDB}: a pod that is done (Succeeded, Failed), not started (Pending) or
     * already being deleted is deleted without consulting budgets.
     */
    public static boolean canIgnoreBudget(JsonNode pod) {
        return PodStates.terminal(pod)
                || PodStates.phase(pod).equals("Pending")
                || PodStates.terminating(pod);
    }

    /**
     * kube's {@code shouldEnforceResourceVersion}: deleting a pod that might still turn Ready is
     * conditional on the version read.
     */
    public static boolean enforceResourceVersion(JsonNode pod) {
        return !PodStates.terminal(pod) && !PodStates.terminating(pod);
    }

    /**
     * kube's {@code propagateDryRun}: the eviction's {@code deleteOptions.dryRun}, else the
     * request's; both given, they must agree.
     *
     * @throws io.kubepekko.api.status.ApiException 400 with kube's message when they differ (kube
     *     answers 500 there; the fault is the request's)
     */
    public static List<String> dryRun(List<String> request, JsonNode deleteOptions) {
        List<String> body = new ArrayList<>();
        deleteOptions.path("dryRun").forEach(v -> body.add(v.asText()));
        if (body.isEmpty()) {
            return List.copyOf(request);
        }
        if (request.isEmpty() || request.equals(body)) {
            return body;
        }
        throw ApiStatus.badRequest(
                        "Non-matching dry-run options in request and content: "
                                + goList(request)
                                + " and "
                                + goList(body))
                .exception();
    }

    /**
     * The budgets guarding {@code pod} among its namespace's {@code budgets}, and what follows
     * (kube's {@code getPodDisruptionBudgets} and the checks after it).
     */
    public static Plan plan(JsonNode pod, List<ObjectNode> budgets) {
        List<ObjectNode> matching = new ArrayList<>();
        for (ObjectNode b : budgets) {
            if (DisruptionStatus.selects(b, pod)) {
                matching.add(b);
            }
        }
        if (matching.size() > 1) {
            return new TooManyBudgets(
                    new ApiStatus(
                            500,
                            null,
                            "This pod has more than one PodDisruptionBudget, which the eviction"
                                    + " subresource does not support.",
                            null));
        }
        if (matching.isEmpty()) {
            return new NoBudget();
        }
        ObjectNode budget = matching.get(0);
        if (!PodStates.ready(pod)) {
            // An unready pod counts towards neither currentHealthy nor desiredHealthy.
            if (budget.path("spec")
                    .path("unhealthyPodEvictionPolicy")
                    .asText("")
                    .equals("AlwaysAllow")) {
                return new DeleteUnhealthy(name(budget));
            }
            JsonNode status = budget.path("status");
            int desired = status.path("desiredHealthy").asInt(0);
            if (status.path("currentHealthy").asInt(0) >= desired && desired > 0) {
                return new DeleteUnhealthy(name(budget));
            }
        }
        return new Decrement(budget);
    }

    /**
     * kube's {@code checkAndDecrement}: a budget the controller has not caught up with, a negative
     * or exhausted allowance, or too many pending evictions refuse; otherwise the allowance goes
     * down by one and (unless dry run) the pod is recorded as disrupted at {@code now}.
     */
    public static Check checkAndDecrement(
            ObjectNode budget, String podName, boolean dryRun, Instant now) {
        String name = name(budget);
        JsonNode status = budget.path("status");
        if (status.path("observedGeneration").asLong(0)
                < budget.path("metadata").path("generation").asLong(0)) {
            return new Refused(stillProcessing(name));
        }
        int allowed = status.path("disruptionsAllowed").asInt(0);
        if (allowed < 0) {
            return new Refused(
                    ApiStatus.forbidden(BUDGET, name, "pdb disruptions allowed is negative"));
        }
        if (status.path("disruptedPods").size() > MAX_DISRUPTED_POD_SIZE) {
            return new Refused(
                    ApiStatus.forbidden(
                            BUDGET,
                            name,
                            "DisruptedPods map too big - too many evictions not confirmed by PDB"
                                    + " controller"));
        }
        if (allowed == 0) {
            return new Refused(
                    tooManyRequests(
                            0,
                            "The disruption budget "
                                    + name
                                    + " needs "
                                    + status.path("desiredHealthy").asInt(0)
                                    + " healthy pods and has "
                                    + status.path("currentHealthy").asInt(0)
                                    + " currently"));
        }
        ObjectNode out = budget.deepCopy();
        ObjectNode next = out.get("status") instanceof ObjectNode s ? s : out.putObject("status");
        next.put("disruptionsAllowed", allowed - 1);
        if (allowed - 1 == 0) {
            DisruptionStatus.updateAllowedCondition(next, now);
        }
        if (!dryRun) {
            ObjectNode disrupted =
                    next.get("disruptedPods") instanceof ObjectNode d
                            ? d
                            : next.putObject("disruptedPods");
            disrupted.put(podName, Timestamps.format(now));
        }
        return new Granted(out);
    }

    /**
     * kube's {@code createTooManyRequestsError}: the budget is not yet up to date (or an unready
     * pod turned Ready meanwhile); a client should retry in 10 s.
     */
    public static ApiStatus stillProcessing(String budget) {
        return tooManyRequests(
                10, "The disruption budget " + budget + " is still being processed by the server.");
    }

    /** The budget's status could not be written for conflicts, every retry (kube's 504). */
    public static ApiStatus conflicts(String budget) {
        return ApiStatus.timeout(
                "Timeout: couldn't update PodDisruptionBudget \"" + budget + "\" due to conflicts",
                10);
    }

    /**
     * The pod's condition that an eviction is deleting it ({@code DisruptionTarget}, reason {@code
     * EvictionByEvictionAPI}), set as kube sets it before the delete.
     */
    public static ObjectNode withDisruptionTarget(ObjectNode pod, Instant now) {
        ObjectNode out = pod.deepCopy();
        ObjectNode status = out.get("status") instanceof ObjectNode s ? s : out.putObject("status");
        Conditions.updatePodCondition(
                status,
                "DisruptionTarget",
                "True",
                "EvictionByEvictionAPI",
                "Eviction API: evicting",
                now);
        return out;
    }

    /**
     * What the delete's preconditions say of the pod before its condition is written (kube's {@code
     * getLatestPod}, which names the resource {@code Pod}).
     */
    public static Optional<ApiStatus> preconditionFailure(
            ObjectNode pod, Preconditions preconditions) {
        GroupResource resource = new GroupResource("", "Pod");
        String name = pod.path("metadata").path("name").asText("");
        String uid = pod.path("metadata").path("uid").asText("");
        String version = pod.path("metadata").path("resourceVersion").asText("");
        if (preconditions.uid() != null
                && !preconditions.uid().isEmpty()
                && !preconditions.uid().equals(uid)) {
            return Optional.of(
                    ApiStatus.conflict(
                            resource,
                            name,
                            "the UID in the precondition ("
                                    + preconditions.uid()
                                    + ") does not match the UID in record ("
                                    + uid
                                    + "). The object might have been deleted and then recreated"));
        }
        if (preconditions.resourceVersion() != null
                && !preconditions.resourceVersion().isEmpty()
                && !preconditions.resourceVersion().equals(version)) {
            return Optional.of(
                    ApiStatus.conflict(
                            resource,
                            name,
                            "the ResourceVersion in the precondition ("
                                    + preconditions.resourceVersion()
                                    + ") does not match the ResourceVersion in record ("
                                    + version
                                    + "). The object might have been modified"));
        }
        return Optional.empty();
    }

    private static ApiStatus tooManyRequests(int retryAfter, String cause) {
        ApiStatus base = ApiStatus.tooManyRequests(VIOLATES, retryAfter);
        return new ApiStatus(
                base.code(),
                base.reason(),
                base.message(),
                new ApiStatus.Details(
                        null,
                        null,
                        null,
                        null,
                        List.of(new StatusCause(DISRUPTION_BUDGET_CAUSE, cause, null)),
                        retryAfter > 0 ? retryAfter : null));
    }

    private static String name(JsonNode obj) {
        return obj.path("metadata").path("name").asText("");
    }

    private static String goList(List<String> values) {
        return "[" + String.join(" ", values) + "]";
    }
}
