package io.kubepekko.http.encoding;

import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Content negotiation for object responses: picks the first acceptable representation in the order
 * the client listed them. A {@code meta.k8s.io} Table ({@code as=Table;g=meta.k8s.io;v=v1|v1beta1})
 * is acceptable in JSON and YAML, PartialObjectMetadata and PartialObjectMetadataList (same {@code
 * g} and {@code v}) in JSON, YAML and protobuf; other transformations (another {@code as}, group or
 * version) are skipped so that a fallback later in the list wins; with no acceptable entry the
 * answer is 406.
 */
public final class Negotiation {
    private Negotiation() {}

    /** The encodings the server can write. */
    public enum Format {
        JSON,
        YAML,
        PROTOBUF
    }

    /**
     * What a read answers with: the object (or list) itself, a Table of it, or its metadata only
     * ({@code partial}: {@code PartialObjectMetadata} or {@code PartialObjectMetadataList}), the
     * last two in {@code meta.k8s.io/metaVersion} ({@code v1} or {@code v1beta1}); either encoded
     * as {@code format}. Protobuf of the object itself is chosen per kind: {@code fallback} is the
     * next acceptable representation, for kinds without a protobuf form (null: none, 406).
     */
    public record Representation(
            Format format,
            boolean table,
            String metaVersion,
            Representation fallback,
            String partial) {
        public static final Representation JSON =
                new Representation(Format.JSON, false, null, null);
        public static final Representation YAML =
                new Representation(Format.YAML, false, null, null);

        Representation(Format format, boolean table, String metaVersion) {
            this(format, table, metaVersion, null, null);
        }

        Representation(Format format, boolean table, String metaVersion, Representation fallback) {
            this(format, table, metaVersion, fallback, null);
        }

        /** Metadata only, as {@code kind} (PartialObjectMetadata or PartialObjectMetadataList). */
        static Representation partial(Format format, String kind, String metaVersion) {
            return new Representation(format, false, metaVersion, null, kind);
        }

        /**
         * The representation for a kind: protobuf only if the kind has a protobuf form (the partial
         * kinds always have one), else the fallback; without one, 406.
         */
        public Representation forKind(boolean kindHasProtobuf) {
            if (format != Format.PROTOBUF || kindHasProtobuf || partial != null) {
                return this;
            }
            if (fallback == null) {
                throw ApiStatus.notAcceptable(
                                "only the following media types are accepted: application/json, application/yaml")
                        .exception();
            }
            return fallback;
        }
    }

    /** Kubernetes' protobuf media type. */
    static final String PROTOBUF = "application/vnd.kubernetes.protobuf";

    /** One entry of an Accept header. */
    record MediaRange(String type, Map<String, String> params, double q) {
        String param(String name) {
            return params.get(name);
        }
    }

    static List<MediaRange> parseAccept(String accept) {
        List<MediaRange> out = new ArrayList<>();
        if (accept == null || accept.isBlank()) {
            return out;
        }
        // -1: keep empty pieces (";;;" and "," are entries without a media range, skipped below,
        // not a crash).
        for (String entry : accept.split(",", -1)) {
            String[] pieces = entry.split(";", -1);
            String type = pieces[0].trim().toLowerCase(Locale.ROOT);
            if (type.isEmpty()) {
                continue;
            }
            Map<String, String> params = new TreeMap<>();
            double q = 1.0;
            for (int i = 1; i < pieces.length; i++) {
                String p = pieces[i].trim();
                int eq = p.indexOf('=');
                if (eq <= 0) {
                    continue;
                }
                String k = p.substring(0, eq).trim();
                String v = p.substring(eq + 1).trim().replace("\"", "");
                if (k.equals("q")) {
                    try {
                        q = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        q = 0;
                    }
                } else {
                    params.put(k, v);
                }
            }
            out.add(new MediaRange(type, params, q));
        }
        // Stable: entries of equal quality keep the client's order.
        out.sort((a, b) -> Double.compare(b.q(), a.q()));
        return out;
    }

    /** Clients repeat the same few Accept headers: remember the last answer per header value. */
    private static final ConcurrentHashMap<String, Representation> REMEMBERED =
            new ConcurrentHashMap<>();

    private static final int MAX_REMEMBERED = 64;

    /** Headers may be up to 1 MiB: only short ones are remembered, so the cache stays a few KiB. */
    private static final int MAX_REMEMBERED_LENGTH = 256;

    /**
     * The encoding of a Status. kube-apiserver negotiates an error's encoding without
     * transformations, so entries asking for one ({@code as=Table}, {@code
     * as=PartialObjectMetadata}) are passed over; with no plain entry acceptable the Status is
     * JSON.
     */
    public static Format objectFormat(String accept) {
        for (MediaRange r : parseAccept(accept)) {
            if (r.q() <= 0
                    || r.param("as") != null
                    || r.param("g") != null
                    || r.param("v") != null) {
                continue;
            }
            switch (r.type()) {
                case "application/json", "application/*", "*/*" -> {
                    return Format.JSON;
                }
                case "application/yaml" -> {
                    return Format.YAML;
                }
                case PROTOBUF -> {
                    return Format.PROTOBUF;
                }
                default -> {}
            }
        }
        return Format.JSON;
    }

    /** The representation of a read's response. */
    public static Representation representation(String accept) {
        Representation known = REMEMBERED.get(accept);
        if (known != null) {
            return known;
        }
        Representation r = negotiate(accept); // throws 406: never remembered
        if (REMEMBERED.size() < MAX_REMEMBERED && accept.length() <= MAX_REMEMBERED_LENGTH) {
            REMEMBERED.put(accept, r);
        }
        return r;
    }

    private static Representation negotiate(String accept) {
        if (accept == null || accept.isBlank()) {
            return Representation.JSON;
        }
        // A header without one media range (";;;", ",") accepts nothing: 406, as kube-apiserver
        // answers.
        List<MediaRange> ranges = parseAccept(accept);
        Representation r = ranges.isEmpty() ? null : firstAcceptable(ranges, 0);
        if (r == null) {
            throw ApiStatus.notAcceptable(
                            "only the following media types are accepted: application/json, application/yaml")
                    .exception();
        }
        return r;
    }

    /**
     * The first representation served among {@code ranges} from {@code from} on (they are in
     * preference order), or null. Protobuf carries the next acceptable entry as its fallback.
     */
    private static Representation firstAcceptable(List<MediaRange> ranges, int from) {
        for (int i = from; i < ranges.size(); i++) {
            MediaRange r = ranges.get(i);
            if (r.q() <= 0) {
                continue;
            }
            Format format =
                    switch (r.type()) {
                        case "application/json", "application/*", "*/*" -> Format.JSON;
                        case "application/yaml" -> Format.YAML;
                        case PROTOBUF -> Format.PROTOBUF;
                        default -> null;
                    };
            if (format == null) {
                continue;
            }
            String as = r.param("as");
            if (as == null && r.param("g") == null && r.param("v") == null) {
                return switch (format) {
                    case JSON -> Representation.JSON;
                    case YAML -> Representation.YAML;
                    case PROTOBUF ->
                            new Representation(
                                    Format.PROTOBUF, false, null, firstAcceptable(ranges, i + 1));
                };
            }
            // A transformation: kube-apiserver serves the meta.k8s.io v1 and v1beta1 ones only.
            if (as == null
                    || !"meta.k8s.io".equals(r.param("g"))
                    || !("v1".equals(r.param("v")) || "v1beta1".equals(r.param("v")))) {
                continue;
            }
            if (as.equals("Table") && format != Format.PROTOBUF) {
                return new Representation(format, true, r.param("v"));
            }
            if (as.equals("PartialObjectMetadata") || as.equals("PartialObjectMetadataList")) {
                return Representation.partial(format, as, r.param("v"));
            }
        }
        return null;
    }
}
