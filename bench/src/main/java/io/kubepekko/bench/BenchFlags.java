package io.kubepekko.bench;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of a benchmark program: {@code --name value}, {@code --name=value}, and the
 * valueless {@code --etcd-only}, {@code --server-only} and {@code --help}. Names are checked
 * against the program's own list; {@code --help} prints its usage and exits.
 */
final class BenchFlags {
  private static final List<String> SWITCHES = List.of("etcd-only", "server-only", "help");

  private BenchFlags() { }

  /**
   * @throws IllegalArgumentException for an argument that is not a flag, an unknown flag, a missing
   *                                  value, or both {@code --etcd-only} and {@code --server-only}
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
}
