package io.kubepekko.http;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Makes requests as a careless client and an attacker would: route shapes of several kinds with dot
 * segments, encoded separators and odd names; every verb and some that are not; query options with
 * bad values; odd Accept and Content-Type headers; bodies of another kind, of wrong types,
 * malformed, deeply nested, too large; and now and then a request that is not well-formed HTTP. All
 * of it from one seeded {@link Random}, so a run is repeatable.
 */
final class FuzzRequests {

    /** A collection the fuzzer addresses. */
    record Kind(
            String prefix, String resource, boolean namespaced, String apiVersion, String kind) {
        String collection(String namespace) {
            return prefix
                    + (namespaced && namespace != null ? "/namespaces/" + namespace : "")
                    + "/"
                    + resource;
        }

        ObjectNode sample(String name) {
            ObjectNode o =
                    Json.MAPPER.createObjectNode().put("apiVersion", apiVersion).put("kind", kind);
            o.putObject("metadata").put("name", name).putObject("labels").put("app", "fuzz");
            switch (resource) {
                case "configmaps" -> o.putObject("data").put("k", "v");
                case "secrets" -> o.putObject("data").put("k", "dg==");
                case "pods" ->
                        o.putObject("spec")
                                .putArray("containers")
                                .addObject()
                                .put("name", "c")
                                .put("image", "busybox");
                case "services" ->
                        o.putObject("spec").putArray("ports").addObject().put("port", 80);
                case "deployments" -> {
                    ObjectNode spec = o.putObject("spec");
                    spec.putObject("selector").putObject("matchLabels").put("app", "fuzz");
                    ObjectNode template = spec.putObject("template");
                    template.putObject("metadata").putObject("labels").put("app", "fuzz");
                    template.putObject("spec")
                            .putArray("containers")
                            .addObject()
                            .put("name", "c")
                            .put("image", "busybox");
                }
                default -> {}
            }
            return o;
        }
    }

    static final List<Kind> KINDS =
            List.of(
                    new Kind("/api/v1", "configmaps", true, "v1", "ConfigMap"),
                    new Kind("/api/v1", "secrets", true, "v1", "Secret"),
                    new Kind("/api/v1", "pods", true, "v1", "Pod"),
                    new Kind("/api/v1", "services", true, "v1", "Service"),
                    new Kind("/apis/apps/v1", "deployments", true, "apps/v1", "Deployment"),
                    new Kind("/api/v1", "namespaces", false, "v1", "Namespace"),
                    new Kind("/api/v1", "nodes", false, "v1", "Node"));

    static final List<String> NAMESPACES = List.of("fz-a", "fz-b");
    static final String NAME = "b1";

    /**
     * One request. {@code kind} is the collection its path addresses when the path is well formed
     * (null for other paths); {@code framing} marks a request that is not well-formed HTTP.
     */
    record Request(
            String method,
            String target,
            List<String> headers,
            byte[] body,
            Kind kind,
            boolean watch,
            boolean dryRun,
            boolean framing) {
        String describe() {
            String b = new String(body, 0, Math.min(body.length, 300), StandardCharsets.ISO_8859_1);
            return method
                    + " "
                    + (target.length() > 300 ? target.substring(0, 300) + "…" : target)
                    + " "
                    + headers.stream()
                            .map(h -> h.length() > 120 ? h.substring(0, 120) + "…" : h)
                            .toList()
                    + " body("
                    + body.length
                    + ")="
                    + b.replace("\r", "\\r").replace("\n", "\\n");
        }
    }

    private static final String[] NASTY_SEGMENTS = {
        ".",
        "..",
        "%2e",
        "%2E%2e",
        "%2e%2e",
        "%2f",
        "%2F",
        "a%2fb",
        "%5c",
        "..%2f..",
        "%2e%2e%2f%2e%2e",
        "%00",
        "%ff",
        "%",
        "%zz",
        "a%20b",
        "UPPER",
        "-x",
        "x-",
        "a.b",
        "\u540d",
        "%E5%90%8D",
        "x".repeat(300),
        "*",
        "~",
        ";x",
        "%3B",
        "status",
        "scale",
        "finalize",
        "binding",
        "bindings",
        "eviction",
        "log",
        "exec",
        "proxy",
        "namespaces",
        "api",
        "v1",
        ""
    };
    private static final String[] METHODS = {
        "GET", "GET", "GET", "GET", "GET", "POST", "POST", "POST", "PUT", "PUT", "PUT", "PATCH",
        "PATCH", "PATCH", "PATCH", "DELETE", "DELETE", "HEAD", "OPTIONS", "FOO", "get", "TRACE"
    };
    private static final String[][] PARAMS = {
        {
            "labelSelector",
            "app=fuzz",
            "app in (a,b)",
            "%00",
            "!!",
            "app==",
            "a=b,c!=d",
            "x=%ff",
            "a=" + "b".repeat(70)
        },
        {
            "fieldSelector",
            "metadata.name=b1",
            "metadata.name==x",
            "spec.nodeName=n",
            "bogus=1",
            "%00",
            "metadata.namespace!=x"
        },
        {"limit", "1", "0", "-1", "abc", "99999999999999999999", "500"},
        {"continue", "abc", "", "%00", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ4In0"},
        {"resourceVersion", "0", "1", "abc", "-1", "99999999999", "", "18446744073709551616"},
        {"resourceVersionMatch", "NotOlderThan", "Exact", "bogus", ""},
        {"timeoutSeconds", "1", "0", "-1", "abc", "999999999", "2147483648"},
        {"allowWatchBookmarks", "true", "x"},
        {"sendInitialEvents", "true", "false", "x"},
        {"dryRun", "All", "all", "Foo", ""},
        {"fieldManager", "m", "", "x".repeat(200), "a%00b", "a%0Ab"},
        {"fieldValidation", "Strict", "Warn", "Ignore", "bogus"},
        {"force", "true", "false", "x"},
        {"propagationPolicy", "Foreground", "Background", "Orphan", "bogus"},
        {"gracePeriodSeconds", "0", "-1", "abc", "30"},
        {"orphanDependents", "true", "x"},
        {"pretty", "true", "1", "x"},
        {"includeObject", "None", "Object", "Metadata", "bogus"},
        {"bogusParam", "1"}
    };
    private static final String[] ACCEPTS = {
        "application/json",
        "application/yaml",
        "application/vnd.kubernetes.protobuf",
        "application/json;as=Table;g=meta.k8s.io;v=v1",
        "application/json;as=Table;v=v1;g=meta.k8s.io, application/json",
        ";;;",
        "*/*;q=0.0001",
        "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1",
        "text/html",
        "application/json;q=abc",
        ",",
        "*/*",
        "application/json;as=Garbage;g=x;v=y",
        "application/vnd.kubernetes.protobuf;stream=watch",
        "application/json, application/vnd.kubernetes.protobuf;q=0.9",
        "application/json;as=Table;g=meta.k8s.io;v=v1beta1"
    };
    private static final String[] CONTENT_TYPES = {
        "application/json",
        "application/json",
        "application/yaml",
        "application/vnd.kubernetes.protobuf",
        "garbage",
        "json",
        "application/json/x",
        "application/octet-stream",
        "text/plain",
        "application/json; charset=utf-8",
        "application/json; charset=utf-16",
        "Application/JSON",
        "*/*",
        ""
    };
    private static final String[] PATCH_TYPES = {
        "application/merge-patch+json",
        "application/json-patch+json",
        "application/strategic-merge-patch+json",
        "application/apply-patch+yaml",
        "application/apply-patch+cbor"
    };
    private static final String[] PATCHES = {
        "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}",
        "{\"kind\":\"Garbage\"}",
        "{\"apiVersion\":\"v9\"}",
        "{\"apiVersion\":\"apps/v1beta1\"}",
        "{\"metadata\":null}",
        "{\"metadata\":{\"name\":\"other\"}}",
        "{\"metadata\":{\"namespace\":\"fz-b\"}}",
        "{\"spec\":null}",
        "{\"metadata\":{\"resourceVersion\":\"1\"}}",
        "[]",
        "{\"metadata\":{\"$setElementOrder/finalizers\":\"x\"}}",
        "{\"$patch\":\"delete\"}",
        "{\"$patch\":\"bogus\"}",
        "{\"metadata\":{\"$retainKeys\":\"x\"}}",
        "{\"metadata\":{\"finalizers\":{\"a\":1}}}",
        "{\"metadata\":{\"$deleteFromPrimitiveList/finalizers\":\"x\"}}",
        "{\"metadata\":{\"labels\":{\"a b\":\"c\"}}}",
        "{\"metadata\":{\"finalizers\":[\"example.com/f\"]}}",
        "[{\"op\":\"replace\",\"path\":\"/kind\",\"value\":\"X\"}]",
        "[{\"op\":\"replace\",\"path\":\"/apiVersion\",\"value\":\"v2\"}]",
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/a\",\"value\":\"b\"}]",
        "[{\"op\":\"bogus\"}]",
        "[{\"op\":\"remove\",\"path\":\"/metadata\"}]",
        "[{\"op\":\"test\",\"path\":\"/x\",\"value\":1}]",
        "{}",
        "[{\"op\":\"move\",\"from\":\"/metadata/name\",\"path\":\"/metadata/x\"}]",
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/~2\",\"value\":\"x\"}]",
        "[{\"op\":\"copy\",\"from\":\"/metadata\",\"path\":\"/metadata/labels/m\"}]",
        copyBomb()
    };

    /** Copies that double the object each time: unbounded, thirty of them would need terabytes. */
    private static String copyBomb() {
        StringBuilder patch = new StringBuilder("[");
        for (int i = 0; i < 30; i++) {
            patch.append(i == 0 ? "" : ",")
                    .append(
                            "{\"op\":\"copy\",\"from\":\"/metadata\",\"path\":\"/metadata/annotations/c")
                    .append(i)
                    .append("\"}");
        }
        return patch.append("]").toString();
    }

    private static final String[] MALFORMED = {
        "",
        "{",
        "}",
        "[]",
        "null",
        "1",
        "\"s\"",
        "{}}",
        "{\"a\":1,}",
        "\uFEFF{}",
        "{\"metadata\":{\"name\":\"\\u0000\"}}",
        "{\"metadata\":\"x\"}",
        "{\"kind\":5}",
        "a: b\nc",
        "a: &a [*a]",
        "{\"apiVersion\":\"v1\",\"kind\":\"DeleteOptions\",\"gracePeriodSeconds\":\"x\"}"
    };

    private final Random random;
    private final int port;

    FuzzRequests(long seed, int port) {
        this.random = new Random(seed);
        this.port = port;
    }

    private <T> T pick(T[] values) {
        return values[random.nextInt(values.length)];
    }

    private <T> T pick(List<T> values) {
        return values.get(random.nextInt(values.size()));
    }

    private boolean chance(double p) {
        return random.nextDouble() < p;
    }

    Request next() {
        if (chance(0.04)) {
            return framing();
        }
        String method = pick(METHODS);
        Kind kind = pick(KINDS);
        String namespace = kind.namespaced() && chance(0.9) ? pick(NAMESPACES) : null;
        boolean named =
                !method.equals("POST") && chance(0.7)
                        || method.equals("PUT")
                        || method.equals("PATCH");
        String name = chance(0.7) ? NAME : "fz-" + random.nextInt(20);
        List<String> segments = new ArrayList<>(List.of(kind.prefix().substring(1).split("/")));
        boolean wellFormed = true;
        if (namespace != null) {
            segments.add("namespaces");
            segments.add(segment(namespace));
        }
        segments.add(segment(kind.resource()));
        if (named) {
            segments.add(segment(name));
            if (chance(0.15)) {
                segments.add(
                        pick(
                                new String[] {
                                    "status",
                                    "scale",
                                    "finalize",
                                    "binding",
                                    "eviction",
                                    "log",
                                    pick(NASTY_SEGMENTS)
                                }));
            }
        }
        for (String s : segments) {
            wellFormed &=
                    !s.startsWith("%")
                            && !s.equals(".")
                            && !s.equals("..")
                            && !s.isEmpty()
                            && !s.contains("%2");
        }
        if (chance(0.05)) {
            segments.add(random.nextInt(segments.size()), "");
            wellFormed = false;
        }
        String path =
                chance(0.03)
                        ? pick(
                                new String[] {
                                    "/api",
                                    "/apis",
                                    "/openapi/v2",
                                    "/openapi/v3",
                                    "/openapi/v3/api/v1",
                                    "/version",
                                    "/healthz/%2e%2e",
                                    "/livez/ping",
                                    "/readyz/../livez",
                                    "/apis/apps",
                                    "/api/v1",
                                    "/apis/%2e%2e/v1",
                                    "/metrics",
                                    "/",
                                    ""
                                })
                        : "/" + String.join("/", segments) + (chance(0.03) ? "/" : "");
        List<String> query = new ArrayList<>();
        boolean watch = method.equals("GET") && chance(0.15);
        if (watch) {
            query.add(
                    chance(0.8) ? "watch=true" : "watch=" + pick(new String[] {"1", "false", "x"}));
            query.add("timeoutSeconds=1");
        }
        boolean dryRun = false;
        int params = random.nextInt(4);
        for (int i = 0; i < params; i++) {
            String[] p = pick(PARAMS);
            String value = p[1 + random.nextInt(p.length - 1)];
            dryRun |= p[0].equals("dryRun") && value.equals("All");
            query.add(p[0] + "=" + value);
        }
        if (method.equals("PATCH") && chance(0.5)) {
            query.add("fieldManager=fuzz");
        }
        String target = path + (query.isEmpty() ? "" : "?" + String.join("&", query));
        List<String> headers = new ArrayList<>();
        if (chance(0.5)) {
            headers.add("Accept: " + pick(ACCEPTS));
        }
        byte[] body = body(method, kind, named ? name : "fz-" + random.nextInt(20), headers);
        if (chance(0.03)) {
            headers.add("X-Fuzz: " + "v".repeat(random.nextInt(200_000)));
        }
        return new Request(
                method, target, headers, body, wellFormed ? kind : null, watch, dryRun, false);
    }

    private String segment(String value) {
        return chance(0.2) ? pick(NASTY_SEGMENTS) : value;
    }

    private byte[] body(String method, Kind kind, String name, List<String> headers) {
        switch (method) {
            case "POST", "PUT" -> {
                headers.add(
                        "Content-Type: "
                                + (chance(0.8) ? "application/json" : pick(CONTENT_TYPES)));
                double r = random.nextDouble();
                if (r < 0.4) {
                    return Json.bytes(kind.sample(name));
                }
                if (r < 0.75) {
                    return Json.bytes(mutate(kind.sample(name)));
                }
                return malformed();
            }
            case "PATCH" -> {
                headers.add(
                        "Content-Type: "
                                + (chance(0.85) ? pick(PATCH_TYPES) : pick(CONTENT_TYPES)));
                double r = random.nextDouble();
                if (r < 0.6) {
                    return pick(PATCHES).getBytes(StandardCharsets.UTF_8);
                }
                if (r < 0.8) {
                    return Json.bytes(chance(0.5) ? kind.sample(name) : mutate(kind.sample(name)));
                }
                return malformed();
            }
            case "DELETE" -> {
                if (chance(0.7)) {
                    return new byte[0];
                }
                headers.add("Content-Type: application/json");
                return pick(new String[] {
                            "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":0}",
                            "{\"kind\":\"Pod\",\"apiVersion\":\"v1\"}",
                            "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"apps/v1\"}",
                            "{\"propagationPolicy\":\"bogus\"}",
                            "{\"gracePeriodSeconds\":-5}",
                            "{\"preconditions\":{\"uid\":\"nope\"}}",
                            "{\"dryRun\":[\"All\"]}",
                            "{",
                            "[]",
                            "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"meta.k8s.io/v1\",\"orphanDependents\":\"x\"}"
                        })
                        .getBytes(StandardCharsets.UTF_8);
            }
            default -> {
                return chance(0.05) ? malformed() : new byte[0];
            }
        }
    }

    private ObjectNode mutate(ObjectNode o) {
        ObjectNode meta = (ObjectNode) o.path("metadata");
        switch (random.nextInt(20)) {
            case 0 ->
                    o.put(
                            "kind",
                            pick(
                                    new String[] {
                                        "Garbage", "Pod", "ConfigMap", "Status", "List", ""
                                    }));
            case 1 ->
                    o.put(
                            "apiVersion",
                            pick(new String[] {"v9", "apps/v1beta1", "", "v1", "meta.k8s.io/v1"}));
            case 2 -> o.put("metadata", "x");
            case 3 ->
                    meta.put(
                            "name",
                            pick(
                                    new String[] {
                                        "other", "..", "a/b", "", "UPPER", "x".repeat(300)
                                    }));
            case 4 -> meta.put("namespace", pick(new String[] {"fz-b", "..", "nope", ""}));
            case 5 -> meta.putArray("labels").add(1);
            case 6 -> meta.putObject("annotations").put("k", 5);
            case 7 ->
                    meta.put(
                            "resourceVersion",
                            pick(new String[] {"abc", "1", "99999999999", "-1"}));
            case 8 -> meta.putArray("finalizers").add("a b").add(5);
            case 9 -> meta.putArray("ownerReferences").addObject().put("x", 1);
            case 10 -> meta.put("managedFields", "x");
            case 11 -> meta.put("deletionTimestamp", "2020-01-01T00:00:00Z");
            case 12 -> {
                meta.remove("name");
                meta.put("generateName", pick(new String[] {"x-", "..", "", "UPPER-"}));
            }
            case 13 -> meta.put("creationTimestamp", "garbage");
            case 14 -> o.putObject("status").put("phase", 5);
            case 15 -> o.put("data", pick(new String[] {"str", ""}));
            case 16 -> o.put("spec", "str");
            case 17 -> o.put("zzz", 1);
            case 18 -> ((ObjectNode) meta.path("labels")).put("app", "v".repeat(100));
            default -> {
                ArrayNode big = o.putArray("items");
                for (int i = 0; i < 5; i++) {
                    big.add("x".repeat(1000));
                }
            }
        }
        return o;
    }

    private byte[] malformed() {
        switch (random.nextInt(8)) {
            case 0 -> {
                byte[] b = new byte[100];
                random.nextBytes(b);
                return b;
            }
            case 1 -> {
                return new byte[] {
                    '{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'
                };
            }
            case 2 -> {
                return "[".repeat(50_000).getBytes(StandardCharsets.UTF_8);
            }
            case 3 -> {
                return "{\"a\":".repeat(5_000).getBytes(StandardCharsets.UTF_8);
            }
            case 4 -> {
                StringBuilder bomb =
                        new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
                for (char c = 'b'; c <= 'j'; c++) {
                    bomb.append(c)
                            .append(": &")
                            .append(c)
                            .append(" [*")
                            .append((char) (c - 1))
                            .append(",*")
                            .append((char) (c - 1))
                            .append(",*")
                            .append((char) (c - 1))
                            .append("]\n");
                }
                return bomb.toString().getBytes(StandardCharsets.UTF_8);
            }
            case 5 -> {
                byte[] b = new byte[64];
                random.nextBytes(b);
                b[0] = 0x6b;
                b[1] = 0x38;
                b[2] = 0x73;
                b[3] = 0x00;
                return b;
            }
            case 6 -> {
                return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\""
                                + "x".repeat(chance(0.5) ? 2_000_000 : 3_200_000)
                                + "\"}}")
                        .getBytes(StandardCharsets.UTF_8);
            }
            default -> {
                return pick(MALFORMED).getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    /** A request that is not well-formed HTTP/1.1 (or stretches what it allows). */
    private Request framing() {
        String host = "Host: 127.0.0.1:" + port;
        return switch (random.nextInt(9)) {
            case 0 -> new Request("GARBAGE", "", List.of(), new byte[0], null, false, false, true);
            case 1 ->
                    new Request(
                            "GET",
                            "/api/v1/namespaces HTTP/9.9",
                            List.of(host),
                            new byte[0],
                            null,
                            false,
                            false,
                            true);
            case 2 ->
                    new Request(
                            "GET",
                            "/api/v1/namespaces",
                            List.of(host, "Foo"),
                            new byte[0],
                            null,
                            false,
                            false,
                            true);
            case 3 ->
                    new Request(
                            "POST",
                            "/api/v1/namespaces/fz-a/configmaps",
                            List.of(
                                    host,
                                    "Content-Type: application/json",
                                    "Transfer-Encoding: chunked"),
                            "zz\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1),
                            null,
                            false,
                            false,
                            true);
            case 4 ->
                    new Request(
                            "POST",
                            "/api/v1/namespaces/fz-a/configmaps",
                            List.of(host, "Content-Type: application/json", "Content-Length: abc"),
                            "{}".getBytes(),
                            null,
                            false,
                            false,
                            true);
            case 5 ->
                    new Request(
                            "POST",
                            "/api/v1/namespaces/fz-a/configmaps",
                            List.of(
                                    host,
                                    "Content-Type: application/json",
                                    "Content-Length: 2",
                                    "Transfer-Encoding: chunked"),
                            "2\r\n{}\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1),
                            null,
                            false,
                            false,
                            true);
            case 6 -> {
                List<String> many = new ArrayList<>(List.of(host));
                for (int i = 0; i < 100; i++) {
                    many.add("X-H" + i + ": v");
                }
                yield new Request(
                        "GET", "/api/v1/namespaces", many, new byte[0], null, false, false, true);
            }
            case 7 ->
                    new Request(
                            "GET",
                            "/api/v1/namespaces?labelSelector=" + "a%3Db,".repeat(1500) + "c%3Dd",
                            List.of(host),
                            new byte[0],
                            null,
                            false,
                            false,
                            true);
            default ->
                    new Request(
                            "GET",
                            "/api/v1/namespaces",
                            List.of(),
                            new byte[0],
                            null,
                            false,
                            false,
                            true);
        };
    }
}
