package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.api.ApiClient;
import io.kubepekko.agent.api.ApiError;
import io.kubepekko.agent.api.Backoff;
import io.kubepekko.agent.api.DeleteOptions;
import io.kubepekko.agent.api.Resource;
import io.kubepekko.agent.api.WatchEvent;
import io.kubepekko.agent.manifest.StaticPodAnnotations;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The mirror pods of the node's static pods (the kubelet's {@code pkg/kubelet/pod/mirror_client.go}
 * and the mirror part of {@code syncPod}), run inside the {@link PodManager}'s actor. Per pod name
 * it compares the mirror the API shows with the static pod that should be mirrored ({@code wanted})
 * and does one call at a time:
 *
 * <ul>
 *   <li>no mirror: create it: the static pod's metadata and spec, annotation {@code
 *       kubernetes.io/config.mirror} (the static pod's hash), owner reference to this Node ({@code
 *       v1 Node}, its uid read from the API, controller);
 *   <li>a mirror being deleted or of another hash (the manifest changed), or one whose static pod
 *       stopped: delete it at once, guarded by its uid (then, if wanted, create it again);
 *   <li>the right mirror: the static pod's newest status is written to it ({@link StatusManager},
 *       keyed by the mirror's uid).
 * </ul>
 *
 * A failed call is retried with back-off. A mirror of a pod this agent has not run in this process
 * is left alone (the sources may not have been read yet; the kubelet also waits for all its sources
 * before removing orphans).
 */
final class MirrorPods {

    /** Results of this helper's own API calls, delivered to the pod manager's actor. */
    sealed interface Command {}

    private record Created(String key, ObjectNode mirror) implements Command {}

    private record Deleted(String key, String mirrorUid) implements Command {}

    private record Failed(String key, String what, ApiError error) implements Command {}

    private record Retry(String key) implements Command {}

    private static final class State {
        ObjectNode observed;
        boolean owned;
        boolean busy;
        String mirrorUid;
        String statusOf;
        ObjectNode status;
        Backoff backoff = new Backoff(Duration.ofMillis(800), Duration.ofSeconds(30), 0);
    }

    private final ActorContext<?> ctx;
    private final ApiClient client;
    private final String nodeName;
    private final ActorRef<Command> self;
    private final ActorRef<StatusManager.Command> status;
    private final Map<String, State> keys = new HashMap<>();

    MirrorPods(
            ActorContext<?> ctx,
            ApiClient client,
            String nodeName,
            ActorRef<Command> self,
            ActorRef<StatusManager.Command> status) {
        this.ctx = ctx;
        this.client = client;
        this.nodeName = nodeName;
        this.self = self;
        this.status = status;
    }

    /** The mirror pods a (re)list shows: every other one known is gone. */
    void listed(List<ObjectNode> mirrors, Function<String, Optional<JsonNode>> wanted) {
        Set<String> all = new HashSet<>(keys.keySet());
        keys.values().forEach(s -> s.observed = null);
        for (ObjectNode m : mirrors) {
            String key = PodChange.key(m);
            state(key).observed = m;
            all.add(key);
        }
        all.forEach(k -> reconcile(k, wanted));
    }

    /** A watch event of a mirror pod. */
    void event(WatchEvent e, Function<String, Optional<JsonNode>> wanted) {
        String key = PodChange.key(e.object());
        State s = state(key);
        if ("DELETED".equals(e.type())) {
            if (s.observed != null && PodChange.uid(s.observed).equals(PodChange.uid(e.object()))) {
                s.observed = null;
            }
        } else {
            s.observed = e.object();
        }
        reconcile(key, wanted);
    }

    /** The newest status of static pod {@code staticUid}, to be written to its mirror. */
    void status(String key, String staticUid, ObjectNode st) {
        State s = state(key);
        s.statusOf = staticUid;
        s.status = st;
        writeStatus(key, s);
    }

    /**
     * The static pod {@code staticUid} of {@code key} stopped: its mirror goes unless another pod
     * has the name.
     */
    void stopped(String key, String staticUid, Function<String, Optional<JsonNode>> wanted) {
        reconcile(key, wanted);
    }

    void on(Command c, Function<String, Optional<JsonNode>> wanted) {
        if (c instanceof Created created) {
            State s = done(created.key());
            if (s.observed == null) {
                s.observed = created.mirror(); // the watch may not have shown it yet
            }
            reconcile(created.key(), wanted);
        } else if (c instanceof Deleted deleted) {
            State s = done(deleted.key());
            if (s.observed != null && PodChange.uid(s.observed).equals(deleted.mirrorUid())) {
                s.observed = null;
            }
            reconcile(deleted.key(), wanted);
        } else if (c instanceof Failed f) {
            State s = state(f.key());
            s.backoff = s.backoff.failed();
            if (s.backoff.firstOfStreak()) {
                ctx.getLog()
                        .warn(
                                "mirror pod {}: {} failed, retrying with back-off: {}",
                                f.key(),
                                f.what(),
                                f.error());
            }
            ctx.scheduleOnce(s.backoff.delay(), self, new Retry(f.key()));
        } else if (c instanceof Retry r) {
            state(r.key()).busy = false;
            reconcile(r.key(), wanted);
        }
    }

    void reconcile(String key, Function<String, Optional<JsonNode>> wanted) {
        State s = state(key);
        if (s.busy) {
            return;
        }
        Optional<JsonNode> pod = wanted.apply(key);
        if (pod.isPresent()) {
            s.owned = true;
        }
        ObjectNode m = s.observed;
        if (m != null) {
            if (pod.isPresent()
                    && !PodChange.deleting(m)
                    && StaticPodAnnotations.mirrorHash(m).equals(hash(pod.get()))) {
                if (!PodChange.uid(m).equals(s.mirrorUid)) {
                    if (s.mirrorUid != null) {
                        status.tell(new StatusManager.Forget(s.mirrorUid));
                    }
                    s.mirrorUid = PodChange.uid(m);
                    writeStatus(key, s);
                }
            } else if (s.owned) {
                delete(key, s, m);
            }
        } else if (pod.isPresent()) {
            create(key, s, pod.get());
        } else {
            if (s.mirrorUid != null) {
                status.tell(new StatusManager.Forget(s.mirrorUid));
            }
            keys.remove(key); // nothing mirrored, nothing to mirror
        }
    }

    private void writeStatus(String key, State s) {
        if (s.mirrorUid == null
                || s.status == null
                || s.observed == null
                || !StaticPodAnnotations.mirrorHash(s.observed).equals(s.statusOf)) {
            return;
        }
        JsonNode meta = s.observed.path("metadata");
        status.tell(
                new StatusManager.Write(
                        meta.path("namespace").asText(),
                        meta.path("name").asText(),
                        s.mirrorUid,
                        s.status));
    }

    private void create(String key, State s, JsonNode pod) {
        s.busy = true;
        ObjectNode mirror = ((ObjectNode) pod).deepCopy();
        mirror.remove("status");
        ObjectNode meta = mirror.with("metadata");
        for (String server :
                new String[] {
                    "uid",
                    "resourceVersion",
                    "creationTimestamp",
                    "generation",
                    "managedFields",
                    "selfLink"
                }) {
            meta.remove(server);
        }
        meta.with("annotations").put(StaticPodAnnotations.CONFIG_MIRROR, hash(pod));
        String ns = meta.path("namespace").asText();
        ctx.getLog().info("creating mirror pod {}", key);
        client.get(Resource.NODES.object(null, nodeName))
                .thenCompose(
                        node -> {
                            meta.putArray("ownerReferences")
                                    .addObject()
                                    .put("apiVersion", "v1")
                                    .put("kind", "Node")
                                    .put("name", nodeName)
                                    .put("uid", node.path("metadata").path("uid").asText())
                                    .put("controller", true);
                            return client.create(Resource.PODS.collection(ns), mirror);
                        })
                .whenComplete(
                        (created, t) ->
                                self.tell(
                                        t == null
                                                ? new Created(key, created)
                                                : new Failed(key, "create", ApiError.of(t))));
    }

    private void delete(String key, State s, ObjectNode m) {
        s.busy = true;
        String uid = PodChange.uid(m);
        ctx.getLog().info("deleting mirror pod {} (uid {})", key, uid);
        JsonNode meta = m.path("metadata");
        client.delete(
                        Resource.PODS.object(
                                meta.path("namespace").asText(), meta.path("name").asText()),
                        DeleteOptions.immediate(uid))
                .whenComplete(
                        (o, t) -> {
                            ApiError error = t == null ? null : ApiError.of(t);
                            // 404: gone already; 409: the name has another pod now. Either way this
                            // mirror is gone.
                            self.tell(
                                    error == null || error.isNotFound() || error.isConflict()
                                            ? new Deleted(key, uid)
                                            : new Failed(key, "delete", error));
                        });
    }

    private State done(String key) {
        State s = state(key);
        s.busy = false;
        s.backoff = s.backoff.succeeded();
        return s;
    }

    private State state(String key) {
        return keys.computeIfAbsent(key, k -> new State());
    }

    private static String hash(JsonNode pod) {
        return pod.path("metadata")
                .path("annotations")
                .path(StaticPodAnnotations.CONFIG_HASH)
                .asText("");
    }
}
