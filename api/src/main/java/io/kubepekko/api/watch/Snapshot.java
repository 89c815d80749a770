package io.kubepekko.api.watch;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.pcollections.TreePMap;

/**
 * The objects of a collection exactly as they were at one resourceVersion. Immutable (a persistent
 * map shared with the cache), so a paging client can keep reading the version its first page came
 * from however many writes follow, and any thread may read it.
 */
public final class Snapshot {

    private final long resourceVersion;
    private final TreePMap<ObjectKey, CachedObject> objects;

    Snapshot(long resourceVersion, TreePMap<ObjectKey, CachedObject> objects) {
        this.resourceVersion = resourceVersion;
        this.objects = objects;
    }

    /** The version this snapshot stands for: the list's {@code metadata.resourceVersion}. */
    public long resourceVersion() {
        return resourceVersion;
    }

    public Optional<CachedObject> get(ObjectKey key) {
        return Optional.ofNullable(objects.get(key));
    }

    /** How many objects the collection held (all namespaces, no selection). */
    public int size() {
        return objects.size();
    }

    /**
     * One page of the matching objects in key order.
     *
     * @param namespace only this namespace, or {@code null} for all
     * @param limit at most this many items; zero or less for all
     * @param startAfterKey the previous page's {@link Page#nextKey()}, or {@code null} to start at
     *     the beginning; it need not still exist
     */
    public Page list(String namespace, Selection selection, int limit, String startAfterKey) {
        return list(
                namespace,
                selection,
                limit,
                startAfterKey == null ? null : ObjectKey.parse(startAfterKey),
                false);
    }

    /**
     * One page starting where a continue token points: its {@link ContinueToken#startKey()} is the
     * first key to read (inclusive), as kube-apiserver writes it (the previous page's last key with
     * a NUL appended).
     */
    public Page continueAt(String namespace, Selection selection, int limit, String startKey) {
        return list(namespace, selection, limit, ObjectKey.parse(startKey), true);
    }

    private Page list(
            String namespace, Selection selection, int limit, ObjectKey from, boolean inclusive) {
        TreePMap<ObjectKey, CachedObject> range =
                namespace == null
                        ? objects
                        : objects.subMap(
                                ObjectKey.firstIn(namespace),
                                true,
                                ObjectKey.afterAllIn(namespace),
                                false);
        if (from != null) {
            range = range.tailMap(from, inclusive);
        }
        List<byte[]> items = new ArrayList<>();
        ObjectKey last = null;
        Iterator<CachedObject> it = range.values().iterator();
        while (it.hasNext() && (limit <= 0 || items.size() < limit)) {
            CachedObject o = it.next();
            if (selection.matches(o)) {
                items.add(o.json());
                last = o.key();
            }
        }
        long remaining = remaining(range, it, last, selection);
        return new Page(items, remaining > 0 ? last.toString() : null, remaining);
    }

    /**
     * The matching objects of {@code namespace} (null: all) in key order, read lazily from this
     * immutable snapshot: a watch's initial events or a large list stream from it without copying.
     */
    public Iterable<CachedObject> matching(String namespace, Selection selection) {
        TreePMap<ObjectKey, CachedObject> range =
                namespace == null
                        ? objects
                        : objects.subMap(
                                ObjectKey.firstIn(namespace),
                                true,
                                ObjectKey.afterAllIn(namespace),
                                false);
        if (selection.isEverything()) {
            return range.values();
        }
        return () ->
                new Iterator<>() {
                    private final Iterator<CachedObject> all = range.values().iterator();
                    private CachedObject next = advance();

                    private CachedObject advance() {
                        while (all.hasNext()) {
                            CachedObject o = all.next();
                            if (selection.matches(o)) {
                                return o;
                            }
                        }
                        return null;
                    }

                    @Override
                    public boolean hasNext() {
                        return next != null;
                    }

                    @Override
                    public CachedObject next() {
                        if (next == null) {
                            throw new NoSuchElementException();
                        }
                        CachedObject o = next;
                        next = advance();
                        return o;
                    }
                };
    }

    /** Without a selection the persistent tree knows sub-range sizes, so no scan is needed. */
    private static long remaining(
            TreePMap<ObjectKey, CachedObject> range,
            Iterator<CachedObject> rest,
            ObjectKey last,
            Selection selection) {
        if (!rest.hasNext()) {
            return 0;
        }
        if (selection.isEverything()) {
            return range.tailMap(last, false).size();
        }
        long count = 0;
        while (rest.hasNext()) {
            if (selection.matches(rest.next())) {
                count++;
            }
        }
        return count;
    }
}
