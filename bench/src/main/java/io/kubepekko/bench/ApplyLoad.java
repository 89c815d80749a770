package io.kubepekko.bench;

import java.io.IOException;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The requests of the apply benchmark: seeding each cell's pool of Deployments, and each cell's
 * measured write. Every write changes one annotation to a value never used before, so none is a
 * no-op.
 *
 * <p>Each worker owns the pool objects {@code i ≡ worker (mod concurrency)} and cycles through
 * them, in every cell alike: no two requests race for one object, so an update's resourceVersion is
 * always the one its own last write returned and a 409 can only mean a server bug. Any answer other
 * than the expected status is an error, and the first one per cell is kept for the report.
 */
final class ApplyLoad {

    static final String APPLY = "application/apply-patch+yaml";
    static final String MERGE_PATCH = "application/merge-patch+json";
    static final String JSON = "application/json";

    /** Creates the pools of the update and merge patch cells. */
    static final String CREATOR = "bench-create";

    static final String ONE_MANAGER = "bench-apply";
    static final String PUT_MANAGER = "bench-put";
    static final String MERGE_MANAGER = "bench-merge";

    /** The first resourceVersion in a Deployment's JSON is its metadata's: nothing precedes it. */
    private static final Pattern RESOURCE_VERSION =
            Pattern.compile("\"resourceVersion\":\"([^\"]+)\"");

    private static final int FAILURE_TEXT = 300;

    private final String runId;
    private final int pool;
    private final int namespaces;
    private final BodyTemplate whole = BodyTemplate.of(DeploymentFixture.whole());
    private final BodyTemplate wholeForUpdate = BodyTemplate.of(DeploymentFixture.wholeForUpdate());
    private final BodyTemplate mergePatch = BodyTemplate.of(DeploymentFixture.revisionMergePatch());
    private final BodyTemplate[] parts = new BodyTemplate[DeploymentFixture.MANAGERS];

    /**
     * The update cell's objects' current resourceVersions. Each slot is only touched by the worker
     * that owns the object; successive runs hand a slot from one thread to the next through
     * Thread.join and Thread.start, which order the accesses.
     */
    private final String[] resourceVersions;

    private final AtomicLong revisions = new AtomicLong();
    private final Map<ApplyCell, AtomicReference<String>> firstFailure =
            new EnumMap<>(ApplyCell.class);

    /**
     * @param runId prefix unique to this run, so that a run against a running server never meets an
     *     earlier run's objects
     */
    ApplyLoad(String runId, int pool, int namespaces) {
        this.runId = runId;
        this.pool = pool;
        this.namespaces = namespaces;
        this.resourceVersions = new String[pool];
        for (int k = 0; k < parts.length; k++) {
            parts[k] = BodyTemplate.of(DeploymentFixture.part(k));
        }
        for (ApplyCell cell : ApplyCell.values()) {
            firstFailure.put(cell, new AtomicReference<>());
        }
    }

    /** The manager of part {@code k} in the five-manager cell. */
    static String partManager(int k) {
        return "bench-m" + k;
    }

    String namespace(int i) {
        return DeploymentFixture.namespace(i, namespaces);
    }

    String name(ApplyCell cell, int i) {
        return runId + "-" + cell.tag() + "-" + i;
    }

    /** The first unexpected answer in the cell, as "HTTP 409: {...}", or null. */
    String firstFailure(ApplyCell cell) {
        return firstFailure.get(cell).get();
    }

    /**
     * Creates pool object {@code i} of the cell as the cell's writers expect to find it: by apply
     * for the apply cells (for five managers, manager 0 creates it and the others then apply their
     * parts, so each owns its fields before the clock starts), by POST for the others.
     */
    boolean seed(HttpConn conn, ApplyCell cell, int i) throws IOException {
        String ns = namespace(i);
        String name = name(cell, i);
        String path = DeploymentFixture.path(ns, name);
        Map<String, String> values = DeploymentFixture.values(ns, name, "0");
        switch (cell) {
            case APPLY_ONE -> {
                return expect(cell, apply(conn, path, ONE_MANAGER, whole.fill(values)), 201);
            }
            case APPLY_FIVE -> {
                if (!expect(cell, apply(conn, path, partManager(0), parts[0].fill(values)), 201)) {
                    return false;
                }
                for (int k = 1; k < parts.length; k++) {
                    if (!expect(
                            cell, apply(conn, path, partManager(k), parts[k].fill(values)), 200)) {
                        return false;
                    }
                }
                return true;
            }
            default -> {
                HttpConn.Response created =
                        conn.send(
                                "POST",
                                DeploymentFixture.collection(ns) + "?fieldManager=" + CREATOR,
                                JSON,
                                whole.fill(values));
                return expect(cell, created, 201) && remember(cell, i, created);
            }
        }
    }

    /** The cell's measured write, for {@link Workers#run} at {@code concurrency}. */
    Workers.Op op(ApplyCell cell, int concurrency) {
        if (pool < concurrency) {
            throw new IllegalArgumentException(
                    "a pool of "
                            + pool
                            + " cannot give each of "
                            + concurrency
                            + " workers an object of its own");
        }
        return (conn, worker, seq) -> {
            int i = owned(worker, seq, concurrency);
            String ns = namespace(i);
            String name = name(cell, i);
            String path = DeploymentFixture.path(ns, name);
            Map<String, String> values =
                    DeploymentFixture.values(ns, name, "r" + revisions.incrementAndGet());
            return switch (cell) {
                case APPLY_ONE ->
                        expect(cell, apply(conn, path, ONE_MANAGER, whole.fill(values)), 200);
                case APPLY_FIVE -> {
                    int k = ThreadLocalRandom.current().nextInt(parts.length);
                    yield expect(
                            cell, apply(conn, path, partManager(k), parts[k].fill(values)), 200);
                }
                case UPDATE -> {
                    Map<String, String> withVersion = new HashMap<>(values);
                    withVersion.put("resourceVersion", resourceVersions[i]);
                    HttpConn.Response updated =
                            conn.send(
                                    "PUT",
                                    path + "?fieldManager=" + PUT_MANAGER,
                                    JSON,
                                    wholeForUpdate.fill(withVersion));
                    yield expect(cell, updated, 200) && remember(cell, i, updated);
                }
                case MERGE_PATCH ->
                        expect(
                                cell,
                                conn.send(
                                        "PATCH",
                                        path + "?fieldManager=" + MERGE_MANAGER,
                                        MERGE_PATCH,
                                        mergePatch.fill(values)),
                                200);
            };
        };
    }

    /** The managedFields entries ("manager/Operation") a cell leaves on its objects. */
    static List<String> expectedManagers(ApplyCell cell) {
        return switch (cell) {
            case APPLY_ONE -> List.of(ONE_MANAGER + "/Apply");
            case APPLY_FIVE ->
                    IntStream.range(0, DeploymentFixture.MANAGERS)
                            .mapToObj(k -> partManager(k) + "/Apply")
                            .toList();
            case UPDATE -> List.of(CREATOR + "/Update", PUT_MANAGER + "/Update");
            case MERGE_PATCH -> List.of(CREATOR + "/Update", MERGE_MANAGER + "/Update");
        };
    }

    /** Bytes of one request body of the cell (the five managers' parts averaged). */
    int bodyBytes(ApplyCell cell) {
        Map<String, String> values =
                new HashMap<>(
                        DeploymentFixture.values(namespace(0), name(cell, 0), "r" + 1_000_000));
        values.put("resourceVersion", "1000000");
        return switch (cell) {
            case APPLY_ONE -> whole.fill(values).length;
            case APPLY_FIVE -> {
                int sum = 0;
                for (BodyTemplate part : parts) {
                    sum += part.fill(values).length;
                }
                yield sum / parts.length;
            }
            case UPDATE -> wholeForUpdate.fill(values).length;
            case MERGE_PATCH -> mergePatch.fill(values).length;
        };
    }

    /** Worker {@code worker}'s object for its call {@code seq}: its own objects in turn. */
    private int owned(int worker, long seq, int concurrency) {
        int count = (pool - worker + concurrency - 1) / concurrency;
        return worker + concurrency * (int) (seq % count);
    }

    private static HttpConn.Response apply(HttpConn conn, String path, String manager, byte[] body)
            throws IOException {
        return conn.send("PATCH", path + "?fieldManager=" + manager, APPLY, body);
    }

    private boolean expect(ApplyCell cell, HttpConn.Response response, int status) {
        if (response.status() == status) {
            return true;
        }
        String text = response.text().strip();
        if (text.length() > FAILURE_TEXT) {
            text = text.substring(0, FAILURE_TEXT) + "…";
        }
        firstFailure
                .get(cell)
                .compareAndSet(
                        null, "HTTP " + response.status() + " (expected " + status + "): " + text);
        return false;
    }

    /** Keeps the update cell's object's new resourceVersion; the other cells need none. */
    private boolean remember(ApplyCell cell, int i, HttpConn.Response written) {
        if (cell != ApplyCell.UPDATE) {
            return true;
        }
        Matcher m = RESOURCE_VERSION.matcher(written.text());
        if (!m.find()) {
            firstFailure.get(cell).compareAndSet(null, "no resourceVersion in " + written.text());
            return false;
        }
        resourceVersions[i] = m.group(1);
        return true;
    }
}
