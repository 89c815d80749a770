package io.kubepekko.http;

/**
 * What the HTTP ITs run against: one server (the default) or, with {@code
 * -Dkubepekko.it.target=cluster}, a cluster of {@value #CLUSTER_SIZE} servers on one Cassandra
 * keyspace (see {@link TestApiServer}). A cluster needs shared storage, so it implies the cassandra
 * profile whatever {@code kubepekko.it.storage} says.
 */
final class TestTarget {
    private TestTarget() {}

    /** Three: an odd number, and enough that two consecutive requests never reach the same node. */
    static final int CLUSTER_SIZE = 3;

    static boolean cluster() {
        return "cluster".equals(System.getProperty("kubepekko.it.target"));
    }

    /** How many servers a {@link TestApiServer} starts. */
    static int size() {
        return cluster() ? CLUSTER_SIZE : 1;
    }
}
