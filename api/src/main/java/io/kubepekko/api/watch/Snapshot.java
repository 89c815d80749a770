package io.kubepekko.api.watch;

import org.pcollections.TreePMap;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The objects of a collection exactly as they were at one resourceVersion. Immutable (a
 * persistent map shared with the cache), so a paging client can keep reading the version its
 * first page came from however many writes follow, and any thread may read it.
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
     * @param namespace     only this namespace, or {@code null} for all
     * @param limit         at most this many items; zero or less for all
     * @param startAfterKey the previous page's {@link Page#nextKey()}, or {@code null} to start at
     *                      the beginning; it need not still exist
     */
    public Page list(String namespace, Selection selection, int limit, String startAfterKey) {
        TreePMap<ObjectKey, CachedObject> range = namespace == null ? objects
                : objects.subMap(ObjectKey.firstIn(namespace), true, ObjectKey.afterAllIn(namespace), false);
        if (startAfterKey != null) {
            range = range.tailMap(ObjectKey.parse(startAfterKey), false);
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

    /** Without a selection the persistent tree knows sub-range sizes, so no scan is needed. */
    private static long remaining(TreePMap<ObjectKey, CachedObject> range, Iterator<CachedObject> rest,
                                  ObjectKey last, Selection selection) {
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
