package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * etcd's equivalent of each read, through its v3 JSON gateway: a list is a range read over the
 * pods' key prefix ({@code /registry/pods/}, kube-apiserver's layout), paged as kube-apiserver
 * pages it (a limit, the next key after the last one, and the first page's revision for a
 * consistent snapshot); a watch is {@code POST /v3/watch} on a prefix. Values travel base64-encoded
 * in this gateway, so etcd's list bodies are about a third larger than the objects: the price of
 * its JSON API, reported with the figures.
 */
final class EtcdReads implements ReadStore {

    private static final Base64.Encoder B64 = Base64.getEncoder();
    private static final Base64.Decoder B64D = Base64.getDecoder();
    private static final String PODS = "/registry/pods/";

    /** One key marker per kv in a range response; its header has no "key" field. */
    private static final String KEY_MARKER = "\"key\":\"";

    private final EtcdTarget writes;
    private final URI base;

    EtcdReads(URI base) {
        this.base = base;
        this.writes = new EtcdTarget(base);
    }

    @Override
    public String name() {
        return "etcd";
    }

    @Override
    public HttpConn newConnection() {
        return new HttpConn(base);
    }

    @Override
    public boolean ensureNamespace(HttpConn conn, String namespace) {
        return true;
    }

    @Override
    public Created createPod(HttpConn conn, PodFixture fixture, long seq) throws IOException {
        PodFixture.Ref ref = fixture.ref(seq);
        byte[] value = fixture.storedJson(ref);
        byte[] body =
                ("{\"key\":\""
                                + b64(PODS + ref.namespace() + "/" + ref.name())
                                + "\",\"value\":\""
                                + B64.encodeToString(value)
                                + "\"}")
                        .getBytes(StandardCharsets.US_ASCII);
        HttpConn.Response response = conn.send("POST", "/v3/kv/put", body);
        return response.ok()
                ? new Created(true, response.status(), value.length, null)
                : new Created(false, response.status(), 0, KubeReads.abbreviate(response.text()));
    }

    @Override
    public Listing listPods(HttpConn conn, ListMode mode, int pageSize, boolean countItems)
            throws IOException {
        String range =
                "\"key\":\"" + b64(PODS) + "\",\"range_end\":\"" + b64(prefixEnd(PODS)) + "\"";
        return switch (mode) {
            case CONSISTENT -> once(conn, "{" + range + "}", countItems);
            case CACHED -> once(conn, "{" + range + ",\"serializable\":true}", countItems);
            case PAGED -> paged(conn, pageSize, countItems);
        };
    }

    private static Listing once(HttpConn conn, String request, boolean count) throws IOException {
        ListBody body = range(conn, request, count);
        return new Listing(body.items(), body.bytes(), 1);
    }

    private static Listing paged(HttpConn conn, int pageSize, boolean count) throws IOException {
        long items = 0;
        long bytes = 0;
        int pages = 0;
        String from = PODS;
        String revision = null;
        while (true) {
            ListBody body =
                    range(
                            conn,
                            "{\"key\":\""
                                    + b64(from)
                                    + "\",\"range_end\":\""
                                    + b64(prefixEnd(PODS))
                                    + "\",\"limit\":"
                                    + pageSize
                                    + (revision == null ? "" : ",\"revision\":" + revision)
                                    + "}",
                            count);
            items += body.items();
            bytes += body.bytes();
            pages++;
            if (revision == null) {
                revision = ListBody.stringField(body.head(), "revision");
            }
            String tail = body.tail();
            if (!tail.contains("\"more\":true")) {
                return new Listing(count ? items : -1, bytes, pages);
            }
            int last = tail.lastIndexOf(KEY_MARKER);
            if (last < 0) {
                throw new IOException(
                        "etcd range: more pages announced but no key in the last page's tail");
            }
            int start = last + KEY_MARKER.length();
            String lastKey =
                    new String(
                            B64D.decode(tail.substring(start, tail.indexOf('"', start))),
                            StandardCharsets.UTF_8);
            from = lastKey + '\0'; // the least key after the last one read
        }
    }

    private static ListBody range(HttpConn conn, String request, boolean count) throws IOException {
        ListBody body = new ListBody(KEY_MARKER, count);
        int status =
                conn.stream("POST", "/v3/kv/range", request.getBytes(StandardCharsets.UTF_8), body);
        if (status != 200) {
            throw new IOException(
                    "etcd range answered " + status + ": " + KubeReads.abbreviate(body.head()));
        }
        return body;
    }

    @Override
    public boolean createConfigMap(HttpConn conn, Workload.Ref ref, byte[] json)
            throws IOException {
        return writes.create(conn, ref, json);
    }

    /** etcd watches start at the current revision; the confirmation says it is registered. */
    @Override
    public WatchRequest watchConfigMaps(HttpConn conn, String namespace) {
        String prefix = "/registry/configmaps/" + namespace + "/";
        return new WatchRequest(
                "POST",
                "/v3/watch",
                ("{\"create_request\":{\"key\":\""
                                + b64(prefix)
                                + "\",\"range_end\":\""
                                + b64(prefixEnd(prefix))
                                + "\"}}")
                        .getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public boolean confirmsWatch() {
        return true;
    }

    @Override
    public WatchLine parseWatchLine(String line) {
        if (line.contains("\"error\"")) {
            return new WatchLine(false, List.of(), KubeReads.abbreviate(line));
        }
        if (line.contains("\"created\":true")) {
            return new WatchLine(true, List.of(), null);
        }
        List<String> names = new ArrayList<>(1);
        // Each event is {"kv":{"key":"<base64>",...}}; a PUT has no "type" (it is the enum's zero).
        String marker = "\"kv\":{" + KEY_MARKER;
        for (int at = line.indexOf(marker); at >= 0; at = line.indexOf(marker, at + 1)) {
            int start = at + marker.length();
            String key =
                    new String(
                            B64D.decode(line.substring(start, line.indexOf('"', start))),
                            StandardCharsets.UTF_8);
            names.add(key.substring(key.lastIndexOf('/') + 1));
        }
        return names.isEmpty() ? WatchLine.NOTHING : new WatchLine(false, names, null);
    }

    private static String b64(String key) {
        return B64.encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    /** The least key greater than every key with this prefix: the last byte plus one. */
    private static String prefixEnd(String prefix) {
        return prefix.substring(0, prefix.length() - 1)
                + (char) (prefix.charAt(prefix.length() - 1) + 1);
    }
}
