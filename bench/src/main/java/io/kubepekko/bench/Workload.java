package io.kubepekko.bench;

import java.nio.charset.StandardCharsets;

/**
 * What the load touches, identical for both stores: object names, their namespaces and the
 * ConfigMap body. Names carry a per-run prefix so that a run against an already running server
 * never collides with objects left by an earlier one.
 */
final class Workload {

    /** One object's address. */
    record Ref(String namespace, String name) {}

    private static final int DATA_KEYS = 4;

    private final String runId;
    private final int poolSize;
    private final String dataJson;

    /**
     * @param runId short prefix unique to this run
     * @param objectBytes total size of the ConfigMap's data values
     * @param poolSize objects per namespace layout that get and update pick from
     */
    Workload(String runId, int objectBytes, int poolSize) {
        this.runId = runId;
        this.poolSize = poolSize;
        this.dataJson = dataJson(objectBytes);
    }

    int poolSize() {
        return poolSize;
    }

    static String namespace(int index) {
        return "bench-" + index;
    }

    /** A fresh object for a create: unique per run, worker and sequence number. */
    Ref fresh(String phase, int worker, long seq, int namespaces) {
        return new Ref(
                namespace((int) ((worker + seq) % namespaces)),
                runId + "-" + phase + "-" + worker + "-" + seq);
    }

    /** Pool object {@code i} of the layout spread over {@code namespaces} namespaces. */
    Ref pooled(int i, int namespaces) {
        return new Ref(namespace(i % namespaces), runId + "-pool" + namespaces + "-" + i);
    }

    /** The ConfigMap as sent on create, and as stored in etcd. */
    byte[] configMap(Ref ref) {
        return configMap(ref, null);
    }

    /**
     * The ConfigMap with label {@code rev=<revision>}: an update that really changes the object.
     */
    byte[] configMap(Ref ref, String revision) {
        String labels = revision == null ? "" : ",\"labels\":{\"rev\":\"" + revision + "\"}";
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\""
                        + ref.name()
                        + "\",\"namespace\":\""
                        + ref.namespace()
                        + "\""
                        + labels
                        + "},\"data\":"
                        + dataJson
                        + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static String dataJson(int totalBytes) {
        StringBuilder json = new StringBuilder(totalBytes + 64).append('{');
        int each = totalBytes / DATA_KEYS;
        for (int k = 0; k < DATA_KEYS; k++) {
            int size = k == DATA_KEYS - 1 ? totalBytes - each * (DATA_KEYS - 1) : each;
            json.append(k == 0 ? "" : ",").append("\"key").append(k).append("\":\"");
            for (int i = 0; i < size; i++) {
                json.append((char) ('a' + (i * 7 + k) % 26));
            }
            json.append('"');
        }
        return json.append('}').toString();
    }
}
