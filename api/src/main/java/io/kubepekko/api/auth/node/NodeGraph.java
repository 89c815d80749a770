package io.kubepekko.api.auth.node;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.GroupResource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * Which objects each node may reach, as kube's node-authorizer graph: a node reaches the pods bound
 * to it; the secrets, config maps, claims, service accounts and resource claims those pods use; the
 * persistent volumes bound to those claims and the secrets those volumes need; and the volume
 * attachments and resource slices naming it.
 *
 * <p>Kube keeps a general directed graph and searches it; every path in it has one of the few
 * shapes above, so this keeps those shapes directly (for each used object, how many pods on each
 * node use it) and answers {@link #reaches} with a few map lookups instead of a search.
 *
 * <p>Fed with stored objects as an informer sees them ({@link #put}, {@link #remove}, {@link
 * #replace} after a relist) from several threads while requests ask from others: every operation is
 * atomic under one read-write lock, so a question sees the graph before or after a change, never
 * half of one. PersistentVolumeClaims themselves need not be watched: a claim is related through
 * the pods that use it and the volume whose {@code claimRef} names it, as in kube.
 */
public final class NodeGraph {

    public static final GroupResource PODS = new GroupResource("", "pods");
    public static final GroupResource PERSISTENT_VOLUMES =
            new GroupResource("", "persistentvolumes");
    public static final GroupResource VOLUME_ATTACHMENTS =
            new GroupResource("storage.k8s.io", "volumeattachments");
    public static final GroupResource RESOURCE_SLICES =
            new GroupResource("resource.k8s.io", "resourceslices");

    /** The resources whose objects shape the graph, for a feeder to list and watch. */
    public static final List<GroupResource> SOURCES =
            List.of(PODS, PERSISTENT_VOLUMES, VOLUME_ATTACHMENTS, RESOURCE_SLICES);

    /**
     * The paths of each source's objects the graph reads: its feeder parses no more, so a relist of
     * 100,000 pods never holds them whole (their status, managedFields and labels are most of
     * them).
     */
    public static final Map<GroupResource, Set<String>> FIELDS =
            Map.of(
                    PODS,
                    PodReferences.FIELDS,
                    PERSISTENT_VOLUMES,
                    Set.of("metadata.name", "spec"),
                    VOLUME_ATTACHMENTS,
                    Set.of("metadata.name", "spec.nodeName"),
                    RESOURCE_SLICES,
                    Set.of("metadata.name", "spec.nodeName"));

    private record PodEntry(String node, Set<ObjectRef> uses) {}

    private record VolumeEntry(Optional<ObjectRef> claim, Set<ObjectRef> secrets) {}

    private final ReadWriteLock lock = new ReentrantReadWriteLock();
    private final Map<ObjectRef, PodEntry> pods = new HashMap<>();

    /** For each object a pod uses: node → how many pods bound there use it. */
    private final Map<ObjectRef, Map<String, Integer>> usedOn = new HashMap<>();

    private final Map<String, VolumeEntry> volumes = new HashMap<>();
    private final Map<ObjectRef, Set<String>> volumesBySecret = new HashMap<>();
    private final Map<String, String> attachments = new HashMap<>();
    private final Map<String, String> slices = new HashMap<>();

    /** Whether {@code source} is one of {@link #SOURCES}. */
    public static boolean feeds(GroupResource source) {
        return SOURCES.contains(source);
    }

    /**
     * Records an added or changed object of one of the {@link #SOURCES}; objects of other resources
     * are ignored. A pod not (yet) bound to a node relates to nothing.
     */
    public void put(GroupResource source, JsonNode object) {
        write(change(source, object));
    }

    /** Forgets a deleted object of one of the {@link #SOURCES}. */
    public void remove(GroupResource source, JsonNode object) {
        JsonNode meta = object.path("metadata");
        String name = meta.path("name").asText("");
        String ns = meta.path("namespace").asText("");
        write(() -> removeLocked(source, ns, name));
    }

    /** Replaces every object of {@code source} with {@code objects}: an informer's relist. */
    public void replace(GroupResource source, Collection<? extends JsonNode> objects) {
        // Read outside the lock: a relist of 100,000 pods would otherwise hold off every node's
        // requests while each pod is read (an informer's list is parsed as it is iterated).
        List<Runnable> changes = new ArrayList<>(objects.size());
        for (JsonNode o : objects) {
            changes.add(change(source, o));
        }
        write(
                () -> {
                    clearLocked(source);
                    changes.forEach(Runnable::run);
                });
    }

    /** Records a pod (added or changed). */
    public void putPod(JsonNode pod) {
        put(PODS, pod);
    }

    /** Forgets a pod. */
    public void removePod(String namespace, String name) {
        write(() -> removeLocked(PODS, namespace, name));
    }

    /** Records a persistent volume (added or changed). */
    public void putPersistentVolume(JsonNode pv) {
        put(PERSISTENT_VOLUMES, pv);
    }

    /** Forgets a persistent volume. */
    public void removePersistentVolume(String name) {
        write(() -> removeLocked(PERSISTENT_VOLUMES, "", name));
    }

    /**
     * Whether {@code node} reaches {@code object}: kube's "path from the object to the node".
     * Unknown objects and nodes reach nothing.
     */
    public boolean reaches(String node, ObjectRef object) {
        lock.readLock().lock();
        try {
            return switch (object.type()) {
                case POD -> {
                    PodEntry p = pods.get(object);
                    yield p != null && p.node().equals(node);
                }
                case CONFIG_MAP, PERSISTENT_VOLUME_CLAIM, SERVICE_ACCOUNT, RESOURCE_CLAIM ->
                        usedOnLocked(object, node);
                case SECRET -> usedOnLocked(object, node) || viaVolumeLocked(object, node);
                case PERSISTENT_VOLUME -> volumeReachesLocked(object.name(), node);
                case VOLUME_ATTACHMENT -> node.equals(attachments.get(object.name()));
                case RESOURCE_SLICE -> node.equals(slices.get(object.name()));
            };
        } finally {
            lock.readLock().unlock();
        }
    }

    /** How many pods the graph holds (bound ones only). */
    public int podCount() {
        lock.readLock().lock();
        try {
            return pods.size();
        } finally {
            lock.readLock().unlock();
        }
    }

    private boolean usedOnLocked(ObjectRef object, String node) {
        Map<String, Integer> nodes = usedOn.get(object);
        return nodes != null && nodes.containsKey(node);
    }

    private boolean viaVolumeLocked(ObjectRef secret, String node) {
        for (String pv : volumesBySecret.getOrDefault(secret, Set.of())) {
            if (volumeReachesLocked(pv, node)) {
                return true;
            }
        }
        return false;
    }

    private boolean volumeReachesLocked(String pv, String node) {
        VolumeEntry v = volumes.get(pv);
        return v != null && v.claim().isPresent() && usedOnLocked(v.claim().get(), node);
    }

    private void write(Runnable change) {
        lock.writeLock().lock();
        try {
            change.run();
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * What recording an added or changed object does to the graph, read from it now and applied
     * under the write lock.
     */
    private Runnable change(GroupResource source, JsonNode object) {
        JsonNode meta = object.path("metadata");
        String name = meta.path("name").asText("");
        String ns = meta.path("namespace").asText("");
        if (name.isEmpty() || !feeds(source)) {
            return () -> {};
        }
        String node = object.path("spec").path("nodeName").asText("");
        if (source.equals(PODS)) {
            ObjectRef pod = new ObjectRef(GraphObject.POD, ns, name);
            // A pod not bound to a node relates to nothing.
            Set<ObjectRef> uses = node.isEmpty() ? null : PodReferences.of(object);
            return () -> {
                removePodLocked(pod);
                if (uses != null) {
                    addPodLocked(pod, node, uses);
                }
            };
        }
        if (source.equals(PERSISTENT_VOLUMES)) {
            // Like kube, a volume bound to no claim relates to nothing, its secrets included.
            Optional<ObjectRef> claim = PersistentVolumeReferences.claim(object);
            Set<ObjectRef> secrets =
                    claim.isEmpty() ? Set.of() : PersistentVolumeReferences.secrets(object);
            return () -> {
                removeVolumeLocked(name);
                if (claim.isPresent()) {
                    addVolumeLocked(name, new VolumeEntry(claim, secrets));
                }
            };
        }
        Map<String, String> byName = source.equals(VOLUME_ATTACHMENTS) ? attachments : slices;
        return () -> {
            byName.remove(name);
            putIfNamed(byName, name, node);
        };
    }

    private void removeLocked(GroupResource source, String ns, String name) {
        if (source.equals(PODS)) {
            removePodLocked(new ObjectRef(GraphObject.POD, ns, name));
        } else if (source.equals(PERSISTENT_VOLUMES)) {
            removeVolumeLocked(name);
        } else if (source.equals(VOLUME_ATTACHMENTS)) {
            attachments.remove(name);
        } else if (source.equals(RESOURCE_SLICES)) {
            slices.remove(name);
        }
    }

    private void clearLocked(GroupResource source) {
        if (source.equals(PODS)) {
            pods.clear();
            usedOn.clear();
        } else if (source.equals(PERSISTENT_VOLUMES)) {
            volumes.clear();
            volumesBySecret.clear();
        } else if (source.equals(VOLUME_ATTACHMENTS)) {
            attachments.clear();
        } else if (source.equals(RESOURCE_SLICES)) {
            slices.clear();
        }
    }

    private void addPodLocked(ObjectRef pod, String node, Set<ObjectRef> uses) {
        pods.put(pod, new PodEntry(node, uses));
        for (ObjectRef used : uses) {
            usedOn.computeIfAbsent(used, k -> new HashMap<>(2)).merge(node, 1, Integer::sum);
        }
    }

    private void removePodLocked(ObjectRef pod) {
        PodEntry old = pods.remove(pod);
        if (old == null) {
            return;
        }
        for (ObjectRef used : old.uses()) {
            Map<String, Integer> nodes = usedOn.get(used);
            if (nodes == null) {
                continue;
            }
            nodes.computeIfPresent(old.node(), (n, count) -> count == 1 ? null : count - 1);
            if (nodes.isEmpty()) {
                usedOn.remove(used);
            }
        }
    }

    private void addVolumeLocked(String name, VolumeEntry entry) {
        volumes.put(name, entry);
        for (ObjectRef s : entry.secrets()) {
            volumesBySecret.computeIfAbsent(s, k -> new HashSet<>(2)).add(name);
        }
    }

    private void removeVolumeLocked(String name) {
        VolumeEntry old = volumes.remove(name);
        if (old == null) {
            return;
        }
        for (ObjectRef s : old.secrets()) {
            Set<String> pvs = volumesBySecret.get(s);
            if (pvs != null && pvs.remove(name) && pvs.isEmpty()) {
                volumesBySecret.remove(s);
            }
        }
    }

    private static void putIfNamed(Map<String, String> byName, String name, String node) {
        if (!node.isEmpty()) {
            byName.put(name, node);
        }
    }
}
