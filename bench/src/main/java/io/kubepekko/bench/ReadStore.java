package io.kubepekko.bench;

import java.io.IOException;
import java.util.List;

/**
 * A store under the read benchmark, seen as the HTTP requests of its list and watch paths. Each
 * method works on the caller's connection.
 */
interface ReadStore {

    /** How a list reads. */
    enum ListMode {
        /** The latest data: ours without resourceVersion, etcd's default linearizable range. */
        CONSISTENT("consistent"),
        /**
         * Whatever the store has at hand: ours with resourceVersion=0, etcd's serializable range.
         */
        CACHED("cached"),
        /** Consistent, in pages, following continue tokens (ours) or the last key (etcd). */
        PAGED("paged");

        final String label;

        ListMode(String label) {
            this.label = label;
        }
    }

    /** A whole traversal of the collection: items seen, body bytes read, requests made. */
    record Listing(long items, long bytes, int pages) {}

    /** A create's answer: its status, the stored object's size, and why it failed if it did. */
    record Created(boolean ok, int status, int storedBytes, String error) {}

    /** The request that opens a watch; it streams until the client closes it. */
    record WatchRequest(String method, String path, byte[] body) {}

    /**
     * One line of a watch stream: the store's confirmation that the watch is registered, or the
     * names of the objects it reports as added (a line may carry several), or an error to report.
     */
    record WatchLine(boolean confirmation, List<String> added, String error) {
        static final WatchLine NOTHING = new WatchLine(false, List.of(), null);
    }

    String name();

    HttpConn newConnection();

    /** Makes sure the namespace exists; an existing one is fine (etcd: nothing to do). */
    boolean ensureNamespace(HttpConn conn, String namespace) throws IOException;

    Created createPod(HttpConn conn, PodFixture fixture, long seq) throws IOException;

    /** Lists every pod of every namespace; fails unless each request answered 200. */
    Listing listPods(HttpConn conn, ListMode mode, int pageSize, boolean countItems)
            throws IOException;

    /** Creates a ConfigMap, the object the watch benchmark writes. */
    boolean createConfigMap(HttpConn conn, Workload.Ref ref, byte[] json) throws IOException;

    /** The request for a watch of one namespace's ConfigMaps from now on. */
    WatchRequest watchConfigMaps(HttpConn conn, String namespace) throws IOException;

    /**
     * Whether the store confirms a new watch with a first message (etcd's {@code "created":true});
     * when not, the 200 status means the watch is set up.
     */
    boolean confirmsWatch();

    WatchLine parseWatchLine(String line);
}
