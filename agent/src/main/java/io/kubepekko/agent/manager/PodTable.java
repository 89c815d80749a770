package io.kubepekko.agent.manager;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the {@link PodManager} knows of the node's pods (the kubelet's pod manager and the pod
 * workers' bookkeeping): an entry per uid, which uid holds each {@code namespace/name}, the uids
 * done with, and the rules read from them (admission's count, one static pod per name, which static
 * pod a mirror shows).
 */
final class PodTable {
    private final Map<String, PodEntry> pods = new HashMap<>();

    /** {@code namespace/name} → uid of the pod of that name the manager runs. */
    private final Map<String, String> names = new HashMap<>();

    /**
     * Uids the manager is done with whose object may still show up (an event already in flight when
     * it deleted the object): not run again. One leaves when the API says its pod is gone (a {@code
     * DELETED} event, a relist).
     */
    private final Set<String> finished = new HashSet<>();

    PodEntry get(String uid) {
        return pods.get(uid);
    }

    boolean contains(String uid) {
        return pods.containsKey(uid);
    }

    /** A copy: the caller may change the table while going through it. */
    List<PodEntry> all() {
        return new ArrayList<>(pods.values());
    }

    void add(PodEntry e) {
        pods.put(e.uid, e);
    }

    /** {@code uid} now holds {@code key}; answers the entry of another uid that held it, if any. */
    Optional<PodEntry> claimName(String key, String uid) {
        String previous = names.put(key, uid);
        return previous == null || previous.equals(uid)
                ? Optional.empty()
                : Optional.ofNullable(pods.get(previous));
    }

    /** {@code e} no longer holds its name (if it still did). */
    void releaseName(PodEntry e) {
        names.remove(e.key(), e.uid);
    }

    /** The entry that holds {@code key}, if any. */
    Optional<PodEntry> holder(String key) {
        String uid = names.get(key);
        return uid == null ? Optional.empty() : Optional.ofNullable(pods.get(uid));
    }

    /**
     * Drops {@code e}; {@code remember}: its uid is not run again while its object may still show
     * up.
     */
    void remove(PodEntry e, boolean remember) {
        pods.remove(e.uid);
        releaseName(e);
        if (remember) {
            finished.add(e.uid);
        }
    }

    boolean finished(String uid) {
        return finished.contains(uid);
    }

    /** The API says {@code uid}'s object is gone: it can no longer show up. */
    void gone(String uid) {
        finished.remove(uid);
    }

    /** A relist shows only {@code present}: every other finished uid is gone. */
    void onlyPresent(Set<String> present) {
        finished.retainAll(present);
    }

    /** How many pods other than {@code e} hold a place on the node ({@link PodEntry#active}). */
    int admittedBesides(PodEntry e) {
        return (int) pods.values().stream().filter(o -> o != e && o.active()).count();
    }

    /**
     * Whether another static pod of {@code e}'s name is still stopping (its worker is not done).
     */
    boolean anotherStaticStopping(PodEntry e) {
        return pods.values().stream()
                .anyMatch(o -> o != e && o.isStatic && o.worker != null && o.key().equals(e.key()));
    }

    /**
     * The static pod a mirror of {@code key} should show now: the one of that name that runs, else
     * one still stopping (the kubelet removes an orphaned mirror only once no static pod of its
     * full name is terminating: {@code IsPodForMirrorPodTerminatingByFullName}).
     */
    Optional<JsonNode> mirrored(String key) {
        Optional<PodEntry> running =
                holder(key).filter(e -> e.isStatic && e.worker != null && !e.terminating);
        if (running.isPresent()) {
            return running.map(e -> e.pod);
        }
        return pods.values().stream()
                .filter(o -> o.isStatic && o.terminating && o.worker != null && o.key().equals(key))
                .findFirst()
                .map(o -> o.pod);
    }
}
