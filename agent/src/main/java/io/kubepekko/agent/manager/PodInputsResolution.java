package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.runtime.TokenRequestKey;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * Reads the ConfigMaps and Secrets a pod refers to ({@link PodReferences}) into its {@link
 * PodInputs}, inside the {@link PodManager}'s actor. One that does not exist is left out (the
 * worker then reports {@code CreateContainerConfigError}, as kube does); a read that fails
 * otherwise is retried with back-off. Only the newest read of a uid counts: the result of an older
 * one, or of one {@link #cancel cancelled}, is dropped.
 *
 * <p>The inputs of pods that got theirs are read again every refresh period (the kubelet's {@code
 * --sync-frequency}, whose pod syncs remount configMap, secret and projected volumes from its
 * ConfigMap/Secret managers' caches); only content that differs from what the pod last got is
 * delivered. A failed re-read is logged and waits for the next period. A ConfigMap or Secret
 * deleted meanwhile is delivered as absent: the worker keeps the volume's last content.
 */
final class PodInputsResolution {

    /** Results of this helper's own reads and timers, delivered to the pod manager's actor. */
    sealed interface Command {}

    private record Resolved(String uid, long seq, PodInputs inputs) implements Command {}

    private record Failed(String uid, long seq, ApiError error) implements Command {}

    private record Retry(String uid, long seq) implements Command {}

    private enum Refresh implements Command {
        INSTANCE
    }

    private static final class State {
        long seq;
        JsonNode pod;
        Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), 0);

        /** A periodic re-read: delivered only if it differs, not retried. */
        boolean refresh;
    }

    /** A pod that got its inputs: its newest object and the inputs it got. */
    private record Delivered(JsonNode pod, PodInputs inputs) {}

    private static final Resource CONFIG_MAPS = new Resource("", "v1", "configmaps", true);
    private static final Resource SECRETS = new Resource("", "v1", "secrets", true);

    private final ActorContext<?> ctx;
    private final ApiClient client;
    private final ServiceAccountTokens tokens;
    private final ActorRef<Command> self;
    private final Map<String, State> reads = new HashMap<>();
    private final Map<String, Delivered> delivered = new HashMap<>();
    private final Duration refreshPeriod;
    private long seq;

    /**
     * Inputs read again every {@code refreshPeriod} (the kubelet's sync frequency, 1 min by
     * default); tokens are refreshed on the clock's time.
     */
    PodInputsResolution(
            ActorContext<?> ctx,
            ApiClient client,
            ActorRef<Command> self,
            Duration refreshPeriod,
            Clock clock) {
        this.ctx = ctx;
        this.client = client;
        this.tokens = new ServiceAccountTokens(client, clock);
        this.self = self;
        this.refreshPeriod = refreshPeriod;
        ctx.scheduleOnce(refreshPeriod, self, Refresh.INSTANCE);
    }

    /**
     * Reads the inputs of {@code pod} (uid {@code uid}) now; an earlier read's result no longer
     * counts.
     */
    void resolve(String uid, JsonNode pod) {
        State s = reads.computeIfAbsent(uid, u -> new State());
        s.pod = pod;
        s.refresh = false;
        start(uid, s);
    }

    /** No result of {@code uid}'s reads is delivered any more, nor is it read again. */
    void cancel(String uid) {
        reads.remove(uid);
        delivered.remove(uid);
        tokens.forget(uid);
    }

    /**
     * Handles one of this helper's messages; {@code resolved} gets a uid's inputs once they are
     * read.
     */
    void on(Command c, BiConsumer<String, PodInputs> resolved) {
        if (c instanceof Resolved r) {
            State s = current(r.uid(), r.seq());
            if (s != null) {
                reads.remove(r.uid());
                Delivered before = delivered.put(r.uid(), new Delivered(s.pod, r.inputs()));
                if (!s.refresh || before == null || !before.inputs().equals(r.inputs())) {
                    if (s.refresh) {
                        ctx.getLog()
                                .info(
                                        "pod {}: its ConfigMaps or Secrets changed",
                                        PodChange.key(s.pod));
                    }
                    resolved.accept(r.uid(), r.inputs());
                }
            }
        } else if (c instanceof Failed f) {
            State s = current(f.uid(), f.seq());
            if (s != null && s.refresh) {
                reads.remove(f.uid());
                ctx.getLog()
                        .debug(
                                "pod {}: reading its ConfigMaps and Secrets again failed, trying next period: {}",
                                PodChange.key(s.pod),
                                f.error());
            } else if (s != null) {
                s.backoff = s.backoff.failed();
                if (s.backoff.firstOfStreak()) {
                    ctx.getLog()
                            .warn(
                                    "pod {}: reading its ConfigMaps and Secrets failed, retrying with back-off: {}",
                                    PodChange.key(s.pod),
                                    f.error());
                }
                ctx.scheduleOnce(s.backoff.delay(), self, new Retry(f.uid(), f.seq()));
            }
        } else if (c instanceof Retry r) {
            State s = current(r.uid(), r.seq());
            if (s != null) {
                start(r.uid(), s);
            }
        } else if (c == Refresh.INSTANCE) {
            refreshAll();
            ctx.scheduleOnce(refreshPeriod, self, Refresh.INSTANCE);
        }
    }

    /**
     * Reads again the inputs of each pod that got some and refers to any, unless a read of it is
     * under way.
     */
    private void refreshAll() {
        delivered.forEach(
                (uid, d) -> {
                    if (!reads.containsKey(uid) && needsRefresh(d.pod())) {
                        State s = new State();
                        s.pod = d.pod();
                        s.refresh = true;
                        reads.put(uid, s);
                        start(uid, s);
                    }
                });
    }

    /**
     * Whether re-reading can change anything: the pod refers to a ConfigMap or Secret, or projects
     * a token (refreshed before it expires).
     */
    static boolean needsRefresh(JsonNode pod) {
        PodReferences refs = PodReferences.of(pod);
        return !refs.configMaps().isEmpty()
                || !refs.secrets().isEmpty()
                || !TokenRequestKey.ofPod(pod).isEmpty();
    }

    private State current(String uid, long seq) {
        State s = reads.get(uid);
        return s != null && s.seq == seq ? s : null;
    }

    private void start(String uid, State s) {
        long mine = ++seq;
        s.seq = mine;
        read(client, tokens, s.pod)
                .whenComplete(
                        (in, t) ->
                                self.tell(
                                        t == null
                                                ? new Resolved(uid, mine, in)
                                                : new Failed(uid, mine, ApiError.of(t))));
    }

    /**
     * The pod's ConfigMaps and Secrets, read from its namespace, and the tokens its projected
     * volumes ask for (a token that could not be had is in the inputs as its failure: the volume's
     * mount error, not a failed read).
     */
    static CompletionStage<PodInputs> read(
            ApiClient client, ServiceAccountTokens tokens, JsonNode pod) {
        String ns = pod.path("metadata").path("namespace").asText("");
        PodReferences refs = PodReferences.of(pod);
        Map<String, CompletableFuture<Optional<ObjectNode>>> cms = new HashMap<>();
        Map<String, CompletableFuture<Optional<ObjectNode>>> secrets = new HashMap<>();
        refs.configMaps().forEach(n -> cms.put(n, optional(client.get(CONFIG_MAPS.object(ns, n)))));
        refs.secrets().forEach(n -> secrets.put(n, optional(client.get(SECRETS.object(ns, n)))));
        List<CompletableFuture<?>> all = new ArrayList<>(cms.values());
        all.addAll(secrets.values());
        Map<TokenRequestKey, CompletableFuture<PodInputs.Token>> issued = new TreeMap<>();
        TokenRequestKey.ofPod(pod)
                .forEach(k -> issued.put(k, tokens.token(pod, k).toCompletableFuture()));
        all.addAll(issued.values());
        return CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .thenApply(
                        v -> {
                            PodInputs in = inputs(joined(cms), joined(secrets));
                            for (var t : issued.entrySet()) {
                                in = in.withToken(t.getKey(), t.getValue().join());
                            }
                            return in;
                        });
    }

    /** The inputs of what was read: a name whose object does not exist (empty) is left out. */
    static PodInputs inputs(
            Map<String, Optional<ObjectNode>> configMaps,
            Map<String, Optional<ObjectNode>> secrets) {
        PodInputs in = PodInputs.NONE;
        for (var c : configMaps.entrySet()) {
            if (c.getValue().isPresent()) {
                in = in.withConfigMap(c.getKey(), PodInputs.ConfigMapData.of(c.getValue().get()));
            }
        }
        for (var s : secrets.entrySet()) {
            if (s.getValue().isPresent()) {
                in = in.withSecret(s.getKey(), PodInputs.SecretData.of(s.getValue().get()));
            }
        }
        return in;
    }

    private static Map<String, Optional<ObjectNode>> joined(
            Map<String, CompletableFuture<Optional<ObjectNode>>> reads) {
        Map<String, Optional<ObjectNode>> out = new HashMap<>();
        reads.forEach((name, f) -> out.put(name, f.join()));
        return out;
    }

    /** A read whose 404 is an answer (the object does not exist), not a failure. */
    private static CompletableFuture<Optional<ObjectNode>> optional(
            CompletionStage<ObjectNode> get) {
        return get.handle(
                        (o, t) -> {
                            if (t == null) {
                                return Optional.of(o);
                            }
                            if (ApiError.of(t).isNotFound()) {
                                return Optional.<ObjectNode>empty();
                            }
                            throw new CompletionException(t);
                        })
                .toCompletableFuture();
    }
}
