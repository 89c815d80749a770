package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.agent.manifest.ManifestOrigin;
import io.kubepekko.agent.manifest.StaticPodAnnotations;
import io.kubepekko.agent.manifest.StaticPodSet;
import io.kubepekko.agent.runtime.PodInputs;
import io.kubepekko.agent.worker.EventSink;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.typed.javadsl.ActorContext;

/**
 * The static pods' part of the {@link PodManager}, run inside its actor: a source's set starts its
 * new uids (each {@linkplain PodAdmitter admitted} first) and stops with its grace period each uid
 * it no longer lists ({@link StaticPodSources}); a new uid of a name (a changed manifest) starts
 * only once the previous one has stopped (pod_workers.go {@code allowStaticPodStart}: one static
 * pod per full name). With an API server each gets its mirror ({@link MirrorPods}, absent without
 * one), kept while the static pod runs and until it finished stopping, and the static pod's status
 * is written to it.
 *
 * <p>One static pod per full name across the sources: a pod whose full name another pod of the same
 * set already has, or one that another source's pod runs under, is ignored with a Warning {@code
 * FailedValidation} event (the kubelet's config merge, {@code filterInvalidPods}; across sources
 * its pod workers start only the first of a full name). An ignored pod starts once its name is
 * free.
 */
final class StaticPodRunner {
    private final PodTable pods;
    private final PodWorkers workers;
    private final PodAdmitter admitter;

    /** Absent in standalone mode. */
    private final MirrorPods mirrors;

    private final ActorContext<?> ctx;
    private final StaticPodSources sources = new StaticPodSources();
    private final EventSink events;

    /** Each source's last set: an ignored duplicate starts from it once its name is free. */
    private final Map<ManifestOrigin.Kind, StaticPodSet> lastSets =
            new EnumMap<>(ManifestOrigin.Kind.class);

    /**
     * The uids ignored as duplicates, each reported once (the file source reads its directory again
     * and again).
     */
    private final Set<String> ignored = new HashSet<>();

    StaticPodRunner(
            PodTable pods,
            PodWorkers workers,
            PodAdmitter admitter,
            MirrorPods mirrors,
            ActorContext<?> ctx,
            EventSink events) {
        this.pods = pods;
        this.workers = workers;
        this.admitter = admitter;
        this.mirrors = mirrors;
        this.ctx = ctx;
        this.events = events;
    }

    /** A source's whole set of pods now. */
    void set(StaticPodSet set) {
        lastSets.put(set.source(), set);
        Set<String> now = new HashSet<>();
        Set<String> names = new HashSet<>();
        Set<String> stillIgnored = new HashSet<>();
        for (ObjectNode pod : set.pods()) {
            String uid = PodChange.uid(pod);
            String key = PodChange.key(pod);
            if (!names.add(key) || heldByAnotherSource(key, set.source())) {
                ignore(pod, uid, set.source());
                stillIgnored.add(uid);
                continue;
            }
            now.add(uid);
            if (pods.contains(uid)) {
                continue; // the same manifest read again (only config.seen differs)
            }
            pods.claimName(key, uid)
                    .filter(old -> !old.terminating)
                    .ifPresent(old -> stop(old, "replaced by uid " + uid));
            PodEntry e = new PodEntry(uid, pod, true);
            pods.add(e);
            ctx.getLog()
                    .info("static pod {} (uid {}) from {}", key, uid, set.source().configSource());
            if (!admitter.admit(e)) {
                continue;
            }
            if (pods.anotherStaticStopping(e)) {
                // The kubelet starts one static pod per full name: the new uid waits for the old
                // one to finish.
                ctx.getLog()
                        .info(
                                "static pod {} (uid {}) waits for its previous version to stop",
                                key,
                                uid);
                continue;
            }
            workers.spawn(e, PodInputs.NONE);
            if (mirrors != null) {
                mirrors.reconcile(key, pods::mirrored);
            }
        }
        for (String uid : sources.replace(set.source(), now)) {
            PodEntry e = pods.get(uid);
            if (e != null && !e.terminating) {
                stop(e, "no longer in its source");
            }
        }
        lastSets.forEach(
                (source, last) -> {
                    if (source != set.source()) {
                        last.pods().forEach(p -> stillIgnored.add(PodChange.uid(p)));
                    }
                });
        ignored.retainAll(stillIgnored);
    }

    /** Whether a static pod of another source runs (or is about to) under {@code key}. */
    private boolean heldByAnotherSource(String key, ManifestOrigin.Kind source) {
        return pods.holder(key)
                .filter(
                        e ->
                                e.isStatic
                                        && !e.terminating
                                        && !source.configSource()
                                                .equals(
                                                        e.pod.path("metadata")
                                                                .path("annotations")
                                                                .path(
                                                                        StaticPodAnnotations
                                                                                .CONFIG_SOURCE)
                                                                .asText("")))
                .isPresent();
    }

    /**
     * The kubelet's words ({@code filterInvalidPods}) for a static pod whose full name another one
     * has.
     */
    private void ignore(ObjectNode pod, String uid, ManifestOrigin.Kind source) {
        if (!ignored.add(uid)) {
            return;
        }
        String name = pod.path("metadata").path("name").asText("");
        String namespace = pod.path("metadata").path("namespace").asText("");
        ctx.getLog()
                .warn(
                        "static pod {}/{} (uid {}) from {} failed validation due to duplicate pod name, ignoring",
                        namespace,
                        name,
                        uid,
                        source.configSource());
        events.event(
                pod,
                "",
                "Warning",
                "FailedValidation",
                "Error validating pod "
                        + name
                        + "_"
                        + namespace
                        + "("
                        + uid
                        + ") from "
                        + source.configSource()
                        + " due to duplicate pod name \""
                        + name
                        + "\", ignoring");
    }

    /** Stops the static pod {@code e} with its grace period. */
    void stop(PodEntry e, String why) {
        ctx.getLog().info("static pod {} (uid {}) {}: stopping it", e.key(), e.uid, why);
        pods.releaseName(e);
        if (e.worker == null) {
            forget(e); // never ran (rejected, or waiting for its previous version)
            return;
        }
        workers.terminate(e, GracePeriod.of(e.pod), false);
        if (mirrors != null) {
            mirrors.reconcile(e.key(), pods::mirrored);
        }
    }

    /**
     * Drops the static pod {@code e}, done (or never started): the next version of its name may
     * start.
     */
    void forget(PodEntry e) {
        pods.remove(e, false);
        startWaiting(e.key());
        if (mirrors != null) {
            mirrors.stopped(e.key(), e.uid, pods::mirrored);
        }
        if (pods.holder(e.key()).isEmpty()) {
            // A duplicate of another source ignored while e held the name takes it now.
            for (StaticPodSet last : Set.copyOf(lastSets.values())) {
                if (last.pods().stream()
                        .anyMatch(
                                p ->
                                        PodChange.key(p).equals(e.key())
                                                && ignored.contains(PodChange.uid(p)))) {
                    set(last);
                    return;
                }
            }
        }
    }

    /** The static pod {@code uid}'s worker wrote {@code status}: it goes to the pod's mirror. */
    void status(String uid, ObjectNode status) {
        PodEntry e = pods.get(uid);
        if (e != null && mirrors != null) {
            mirrors.status(e.key(), uid, status);
        }
    }

    /**
     * Starts the static pod of {@code key} that waited for its previous version to stop, once none
     * is left.
     */
    private void startWaiting(String key) {
        pods.holder(key)
                .filter(
                        next ->
                                next.isStatic
                                        && next.worker == null
                                        && !next.terminating
                                        && !next.rejected
                                        && !pods.anotherStaticStopping(next))
                .ifPresent(
                        next -> {
                            ctx.getLog()
                                    .info(
                                            "static pod {} (uid {}): its previous version stopped, starting it",
                                            key,
                                            next.uid);
                            workers.spawn(next, PodInputs.NONE);
                        });
    }
}
