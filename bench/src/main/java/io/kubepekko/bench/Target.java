package io.kubepekko.bench;

import java.io.IOException;

/**
 * A store under test, seen as the HTTP requests that make up each operation. Each method sends one
 * request on the caller's connection and says whether it succeeded.
 */
interface Target {

    /** Short label used in progress lines and the report ("ours", "etcd"). */
    String name();

    /** A new, not yet connected connection for one worker. */
    HttpConn newConnection();

    /** Makes sure the namespace exists; an existing one is fine. */
    boolean ensureNamespace(HttpConn conn, String namespace) throws IOException;

    boolean create(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException;

    boolean get(HttpConn conn, Workload.Ref ref) throws IOException;

    boolean update(HttpConn conn, Workload.Ref ref, byte[] object) throws IOException;
}
