package io.kubepekko.bench;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Our API server's read path: {@code GET /api/v1/pods} in its three forms, and ConfigMap watches.
 */
final class KubeReads implements ReadStore {

    private static final String ADDED = "{\"type\":\"ADDED\"";
    private static final String ERROR = "{\"type\":\"ERROR\"";

    private final KubeTarget writes;

    KubeReads(Endpoint server) {
        this.writes = new KubeTarget(server);
    }

    @Override
    public String name() {
        return "ours";
    }

    @Override
    public HttpConn newConnection() {
        return writes.newConnection();
    }

    @Override
    public boolean ensureNamespace(HttpConn conn, String namespace) throws IOException {
        return writes.ensureNamespace(conn, namespace);
    }

    @Override
    public Created createPod(HttpConn conn, PodFixture fixture, long seq) throws IOException {
        PodFixture.Ref ref = fixture.ref(seq);
        HttpConn.Response response =
                conn.send(
                        "POST",
                        "/api/v1/namespaces/" + ref.namespace() + "/pods",
                        fixture.json(ref));
        // The answer to a create is the object as stored; its length is what the server keeps.
        return response.status() == 201
                ? new Created(true, 201, response.body().length, null)
                : new Created(false, response.status(), 0, abbreviate(response.text()));
    }

    @Override
    public Listing listPods(HttpConn conn, ListMode mode, int pageSize, boolean countItems)
            throws IOException {
        return switch (mode) {
            case CONSISTENT -> once(conn, "/api/v1/pods", countItems);
            case CACHED -> once(conn, "/api/v1/pods?resourceVersion=0", countItems);
            case PAGED -> paged(conn, pageSize, countItems);
        };
    }

    private static Listing once(HttpConn conn, String path, boolean count) throws IOException {
        ListBody body = get(conn, path, count);
        return new Listing(body.items(), body.bytes(), 1);
    }

    private static Listing paged(HttpConn conn, int pageSize, boolean count) throws IOException {
        long items = 0;
        long bytes = 0;
        int pages = 0;
        String token = null;
        do {
            String path =
                    "/api/v1/pods?limit="
                            + pageSize
                            + (token == null
                                    ? ""
                                    : "&continue="
                                            + URLEncoder.encode(token, StandardCharsets.UTF_8));
            ListBody body = get(conn, path, count);
            items += body.items();
            bytes += body.bytes();
            pages++;
            // The list's metadata, continue token included, precedes its items.
            String head = body.head();
            int itemsAt = head.indexOf("\"items\":");
            token =
                    ListBody.stringField(
                            itemsAt < 0 ? head : head.substring(0, itemsAt), "continue");
        } while (token != null && !token.isEmpty());
        return new Listing(count ? items : -1, bytes, pages);
    }

    private static ListBody get(HttpConn conn, String path, boolean count) throws IOException {
        ListBody body = new ListBody(PodFixture.ITEM_MARKER, count);
        int status = conn.stream("GET", path, null, body);
        if (status != 200) {
            throw new IOException(
                    "GET " + path + " answered " + status + ": " + abbreviate(body.head()));
        }
        return body;
    }

    @Override
    public boolean createConfigMap(HttpConn conn, Workload.Ref ref, byte[] json)
            throws IOException {
        return writes.create(conn, ref, json);
    }

    /**
     * A watch from the resourceVersion of a list just made, as an informer starts one: it sees
     * every change after that list, however long the watch takes to set up.
     */
    @Override
    public WatchRequest watchConfigMaps(HttpConn conn, String namespace) throws IOException {
        String collection = "/api/v1/namespaces/" + namespace + "/configmaps";
        HttpConn.Response list = conn.get(collection + "?limit=1");
        String version =
                list.status() == 200 ? ListBody.stringField(list.text(), "resourceVersion") : null;
        if (version == null) {
            throw new IOException(
                    "GET "
                            + collection
                            + " answered "
                            + list.status()
                            + ": "
                            + abbreviate(list.text()));
        }
        return new WatchRequest("GET", collection + "?watch=true&resourceVersion=" + version, null);
    }

    @Override
    public boolean confirmsWatch() {
        return false;
    }

    @Override
    public WatchLine parseWatchLine(String line) {
        if (line.startsWith(ERROR)) {
            return new WatchLine(false, List.of(), abbreviate(line));
        }
        if (!line.startsWith(ADDED)) {
            return WatchLine.NOTHING;
        }
        int metadata = line.indexOf("\"metadata\":");
        String name = metadata < 0 ? null : ListBody.stringField(line.substring(metadata), "name");
        return name == null ? WatchLine.NOTHING : new WatchLine(false, List.of(name), null);
    }

    static String abbreviate(String text) {
        String flat = text.strip().replace('\n', ' ');
        return flat.length() <= 300 ? flat : flat.substring(0, 300) + "…";
    }
}
