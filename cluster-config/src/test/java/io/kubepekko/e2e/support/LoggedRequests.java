package io.kubepekko.e2e.support;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP exchanges a client-go based client (kubectl at {@code -v=6} or more) logged on standard
 * error, one per {@code "Response"} line: what the client actually sent and what the server
 * answered, for tests that assert on the wire (a 201 rather than a 200, a field manager, how many
 * PATCHes an apply took).
 */
public final class LoggedRequests {
    private static final Pattern RESPONSE =
            Pattern.compile(
                    "\"Response\" verb=\"([A-Z]+)\" url=\"([^\"]+)\" status=\"(\\d+)[^\"]*\"");

    /** One logged exchange: {@code status} is the HTTP code. */
    public record Exchange(String verb, String url, int status) {

        /** The decoded value of query parameter {@code name}, or null. */
        public String query(String name) {
            int q = url.indexOf('?');
            if (q < 0) {
                return null;
            }
            for (String pair : url.substring(q + 1).split("&")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair : pair.substring(0, eq);
                if (key.equals(name)) {
                    return eq < 0
                            ? ""
                            : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                }
            }
            return null;
        }
    }

    private LoggedRequests() {}

    /** Every exchange the process logged, in order. */
    public static List<Exchange> of(ProcessResult result) {
        List<Exchange> out = new ArrayList<>();
        Matcher m = RESPONSE.matcher(result.stderr());
        while (m.find()) {
            out.add(new Exchange(m.group(1), m.group(2), Integer.parseInt(m.group(3))));
        }
        return out;
    }

    /** The exchanges with HTTP method {@code verb}. */
    public static List<Exchange> of(ProcessResult result, String verb) {
        return of(result).stream().filter(e -> e.verb().equals(verb)).toList();
    }
}
