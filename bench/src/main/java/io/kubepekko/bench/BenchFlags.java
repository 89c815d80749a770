package io.kubepekko.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The command line of a benchmark program: {@code --name value}, {@code --name=value}, and the
 * valueless {@code --etcd-only}, {@code --server-only}, {@code --smoke}, {@code --no-runtime-floor}
 * and {@code --help}. Names are checked against the program's own list; {@code --help} prints its
 * usage and exits. The value parsers below are shared by every benchmark, so that a duration or a
 * list reads the same in all of them.
 */
final class BenchFlags {
    private static final List<String> SWITCHES =
            List.of("etcd-only", "server-only", "smoke", "no-runtime-floor", "help");

    private BenchFlags() {}

    /**
     * @throws IllegalArgumentException for an argument that is not a flag, an unknown flag, a
     *     missing value, or both {@code --etcd-only} and {@code --server-only}
     */
    static Map<String, String> parse(String[] args, List<String> known, String usage) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            int eq = arg.indexOf('=');
            if (eq > 0) {
                flags.put(arg.substring(2, eq), arg.substring(eq + 1));
            } else if (SWITCHES.contains(arg.substring(2))) {
                flags.put(arg.substring(2), "true");
            } else if (i + 1 < args.length) {
                flags.put(arg.substring(2), args[++i]);
            } else {
                throw new IllegalArgumentException("missing value for " + arg);
            }
        }
        if (flags.containsKey("help")) {
            System.out.print(usage);
            System.exit(0);
        }
        for (String flag : flags.keySet()) {
            if (!known.contains(flag)) {
                throw new IllegalArgumentException("unknown flag --" + flag);
            }
        }
        if (flags.containsKey("etcd-only") && flags.containsKey("server-only")) {
            throw new IllegalArgumentException("--etcd-only and --server-only exclude each other");
        }
        return flags;
    }

    /**
     * The options of a benchmark's command line, or, when they do not parse, the reason and the
     * usage on stderr and exit status 2 (the scripts' convention for a bad flag).
     */
    static <T> T parseOrExit(String[] args, Function<String[], T> parser, String usage) {
        try {
            return parser.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(usage);
            System.exit(2);
            throw e; // not reached
        }
    }

    /** {@code http://host:port} or {@code https://host:port}, or null when not given. */
    static URI uri(String value) {
        if (value == null) {
            return null;
        }
        URI uri = URI.create(value);
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                || uri.getHost() == null) {
            throw new IllegalArgumentException("expected http(s)://host:port, got " + value);
        }
        return uri;
    }

    /**
     * A running server given on the command line: {@code --kubeconfig FILE} (its server, CA and
     * client certificate; {@code --server-url} overrides the server), or a plain {@code
     * --server-url http://...}; null when neither was given.
     *
     * @throws IOException when the kubeconfig cannot be read or an https URL has no kubeconfig
     */
    static Endpoint server(URI serverUrl, Path kubeconfig) throws IOException {
        if (kubeconfig != null) {
            Endpoint fromFile = ClientTls.kubeconfig(kubeconfig);
            return serverUrl == null ? fromFile : fromFile.at(serverUrl);
        }
        if (serverUrl == null) {
            return null;
        }
        if ("https".equals(serverUrl.getScheme())) {
            throw new IOException(
                    serverUrl
                            + " is HTTPS: give --kubeconfig with its CA and a client certificate");
        }
        return Endpoint.plain(serverUrl);
    }

    /** {@code 500ms}, {@code 6s}, {@code 1.5s}, {@code 2m}, or plain seconds. */
    static Duration duration(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            } else if (v.endsWith("s")) {
                return Duration.ofMillis(
                        Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
            } else if (v.endsWith("m")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)) * 60);
            }
            return Duration.ofSeconds(Long.parseLong(v));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a duration: " + value);
        }
    }

    static int positive(String value) {
        int n;
        try {
            n = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a positive number, got " + value);
        }
        if (n < 1) {
            throw new IllegalArgumentException("expected a positive number, got " + value);
        }
        return n;
    }

    /** A comma-separated list of positive numbers. */
    static List<Integer> positives(String csv) {
        List<Integer> values = new ArrayList<>();
        for (String part : csv.split(",")) {
            values.add(positive(part));
        }
        return values;
    }
}
