package io.kubepekko.api.admission.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.MutatingAdmission;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.status.ApiStatus;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * kube's ServiceAccount admission plugin, over the accounts an informer keeps ({@link
 * ServiceAccountIndex}), for pods created (no subresource). Mutating: a pod without {@code
 * serviceAccountName} runs as {@code default}; the account must exist (else 403 {@code error
 * looking up service account ns/name: serviceaccount "name" not found}); unless the pod's, else the
 * account's, {@code automountServiceAccountToken} is false, the pod gets the token volume and its
 * mounts ({@link TokenVolume}); a pod without image pull secrets gets the account's. Refusing: the
 * account must (still) exist, and an account annotated {@code
 * kubernetes.io/enforce-mountable-secrets: "true"} limits the secrets the pod may reference to its
 * own ({@link MountableSecrets}).
 *
 * <p>A mirror pod (annotation {@code kubernetes.io/config.mirror}) is not changed; it may not name
 * a service account, reference a secret or project a token.
 *
 * <p>Where the informer has not shown the account, kube's plugin asks the API server, ten times
 * 100–200 ms apart for {@code default} (its controller may be about to create it in a new
 * namespace): {@link #prepareCreate} does that before the write, off the write's thread, and
 * records an account it finds in the index for the write to read.
 */
public final class ServiceAccountAdmission implements MutatingAdmission, WriteAdmission {

    static final GroupResource PODS = new GroupResource("", "pods");
    static final String DEFAULT = "default";
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    /** A live read of one account (a GET at "Most Recent"); empty when it does not exist. */
    @FunctionalInterface
    public interface LiveLookup {
        CompletionStage<Optional<ObjectNode>> get(String namespace, String name);
    }

    /** Waits before the next attempt: completes after {@code millis}. */
    @FunctionalInterface
    public interface Delay {
        CompletionStage<Void> after(long millis);
    }

    private final ServiceAccountIndex index;
    private final Supplier<String> nameSuffixes;
    private final LiveLookup live;
    private final Delay delay;
    private final Supplier<Long> retryInterval;

    /**
     * @param nameSuffixes the token volume's random suffixes (kube's five characters)
     * @param retryInterval the wait between live look-ups of {@code default}, drawn once per pod
     *     (kube: 100–200 ms)
     */
    public ServiceAccountAdmission(
            ServiceAccountIndex index,
            Supplier<String> nameSuffixes,
            LiveLookup live,
            Delay delay,
            Supplier<Long> retryInterval) {
        this.index = index;
        this.nameSuffixes = nameSuffixes;
        this.live = live;
        this.delay = delay;
        this.retryInterval = retryInterval;
    }

    @Override
    public Mutation admit(AdmissionRequest request) {
        if (ignores(request)) {
            return new Mutation.Admitted(request.object());
        }
        if (mirror(request.object())) {
            return refusal(request)
                    .<Mutation>map(Mutation.Refused::new)
                    .orElse(new Mutation.Admitted(request.object()));
        }
        ObjectNode pod = request.object().deepCopy();
        ObjectNode spec = pod.get("spec") instanceof ObjectNode s ? s : pod.putObject("spec");
        if (spec.path("serviceAccountName").asText("").isEmpty()) {
            spec.put("serviceAccountName", DEFAULT);
        }
        String name = spec.path("serviceAccountName").asText();
        Optional<ObjectNode> account = index.find(request.namespace(), name);
        if (account.isEmpty()) {
            return new Mutation.Refused(notFound(request, name));
        }
        if (automount(account.get(), pod)) {
            TokenVolume.mount(pod, nameSuffixes);
        }
        if (spec.path("imagePullSecrets").size() == 0
                && account.get().path("imagePullSecrets").size() > 0) {
            ArrayNode pullSecrets = spec.putArray("imagePullSecrets");
            for (JsonNode ref : account.get().path("imagePullSecrets")) {
                pullSecrets.addObject().put("name", ref.path("name").asText(""));
            }
        }
        AdmissionRequest mutated = request.withObject(pod);
        return refusal(mutated)
                .<Mutation>map(Mutation.Refused::new)
                .orElse(new Mutation.Admitted(pod));
    }

    @Override
    public Optional<ApiStatus> refusal(AdmissionRequest request) {
        if (ignores(request)) {
            return Optional.empty();
        }
        ObjectNode pod = request.object();
        if (mirror(pod)) {
            if (!pod.path("spec").path("serviceAccountName").asText("").isEmpty()) {
                return Optional.of(
                        request.forbidden("a mirror pod may not reference service accounts"));
            }
            if (PodSecretReferences.any(pod)) {
                return Optional.of(request.forbidden("a mirror pod may not reference secrets"));
            }
            if (PodSecretReferences.projectsToken(pod)) {
                return Optional.of(
                        request.forbidden(
                                "a mirror pod may not use ServiceAccountToken volume projections"));
            }
            return Optional.empty();
        }
        String name = pod.path("spec").path("serviceAccountName").asText("");
        Optional<ObjectNode> account = index.find(request.namespace(), name);
        if (account.isEmpty()) {
            return Optional.of(notFound(request, name));
        }
        return MountableSecrets.violation(account.get(), pod).map(request::forbidden);
    }

    /**
     * kube's live look-up where the informer misses: before a pod create is written, the account it
     * names (or {@code default}) is read until found, ten times for {@code default}, once for any
     * other; one found is recorded in the index. Never fails: the write's admission then answers.
     */
    @Override
    public CompletionStage<Void> prepareCreate(
            GroupResource resource, String namespace, ObjectNode object) {
        if (!resource.equals(PODS) || object == null || mirror(object)) {
            return CompletableFuture.completedFuture(null);
        }
        String name = object.path("spec").path("serviceAccountName").asText("");
        if (name.isEmpty()) {
            name = DEFAULT;
        }
        if (index.find(namespace, name).isPresent()) {
            return CompletableFuture.completedFuture(null);
        }
        int attempts = name.equals(DEFAULT) ? 10 : 1;
        return lookUp(namespace, name, attempts, retryInterval.get())
                .handle((found, failure) -> null);
    }

    private CompletionStage<Void> lookUp(String namespace, String name, int left, long interval) {
        return live.get(namespace, name)
                .thenCompose(
                        found -> {
                            if (found.isPresent()) {
                                index.confirm(found.get());
                                return CompletableFuture.completedFuture(null);
                            }
                            if (left <= 1 || index.find(namespace, name).isPresent()) {
                                return CompletableFuture.completedFuture(null);
                            }
                            return delay.after(interval)
                                    .thenCompose(v -> lookUp(namespace, name, left - 1, interval));
                        });
    }

    /** kube's {@code shouldIgnore} for a plugin that handles creates only. */
    private static boolean ignores(AdmissionRequest request) {
        return request.operation() != Operation.CREATE
                || !request.resource().equals(PODS)
                || !request.subresource().isEmpty()
                || request.object() == null;
    }

    private static boolean mirror(JsonNode pod) {
        return pod.path("metadata").path("annotations").has(MIRROR_ANNOTATION);
    }

    /** kube's {@code shouldAutomount}: the pod's preference, else the account's, else true. */
    static boolean automount(JsonNode account, JsonNode pod) {
        JsonNode podPreference = pod.path("spec").path("automountServiceAccountToken");
        if (podPreference.isBoolean()) {
            return podPreference.asBoolean();
        }
        JsonNode accountPreference = account.path("automountServiceAccountToken");
        return !accountPreference.isBoolean() || accountPreference.asBoolean();
    }

    private static ApiStatus notFound(AdmissionRequest request, String name) {
        return request.forbidden(
                "error looking up service account "
                        + request.namespace()
                        + "/"
                        + name
                        + ": serviceaccount \""
                        + name
                        + "\" not found");
    }
}
