package io.kubepekko.http;

import io.kubepekko.api.status.ApiStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Content negotiation for object responses: picks the first acceptable representation in the order
 * the client listed them. Representations not served yet (Table, protobuf) are skipped so that a
 * JSON fallback later in the list wins; with no acceptable entry the answer is 406.
 */
final class Negotiation {
    private Negotiation() {}

    /** The representations the server can write. */
    enum Format { JSON, YAML }

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
        for (String entry : accept.split(",")) {
            String[] pieces = entry.split(";");
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
    private static final java.util.concurrent.ConcurrentHashMap<String, Format> FORMATS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_REMEMBERED = 64;

    /** The format for an object/list/Status response. */
    static Format objectFormat(String accept) {
        Format known = FORMATS.get(accept);
        if (known != null) {
            return known;
        }
        Format f = negotiateObjectFormat(accept); // throws 406: never remembered
        if (FORMATS.size() < MAX_REMEMBERED) {
            FORMATS.put(accept, f);
        }
        return f;
    }

    private static Format negotiateObjectFormat(String accept) {
        List<MediaRange> ranges = parseAccept(accept);
        if (ranges.isEmpty()) {
            return Format.JSON;
        }
        for (MediaRange r : ranges) {
            if (r.q() <= 0 || r.param("as") != null) {
                continue; // Table / PartialObjectMetadata: not served yet; fall through to the next entry
            }
            switch (r.type()) {
                case "application/json", "application/*", "*/*" -> {
                    return Format.JSON;
                }
                case "application/yaml" -> {
                    return Format.YAML;
                }
                default -> { }
            }
        }
        throw ApiStatus.notAcceptable(
                "only the following media types are accepted: application/json, application/yaml").exception();
    }
}
