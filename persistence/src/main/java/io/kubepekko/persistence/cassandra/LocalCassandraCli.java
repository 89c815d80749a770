package io.kubepekko.persistence.cassandra;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;

/** The command line of {@link LocalCassandra}, as {@code cluster-config/bin/cassandra} runs it. */
final class LocalCassandraCli {
    static final String USAGE = "usage: cassandra start|run|stop|status [--data-dir DIR] (default DIR: ./data/cassandra)\n"
            + "  start: in the background, prints the CQL port; run: in the foreground until this process ends";

    private LocalCassandraCli() {}

    /** Runs one command; returns the exit code (2 for a usage error, as the server's flags do). */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String command = args[0];
        Path dataDir = Path.of("data", "cassandra");
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.startsWith("--data-dir=")) {
                dataDir = Path.of(arg.substring("--data-dir=".length()));
            } else if (arg.equals("--data-dir") && i + 1 < args.length) {
                dataDir = Path.of(args[++i]);
            } else {
                err.println("unknown argument: " + arg + "\n" + USAGE);
                return 2;
            }
        }
        Optional<LocalCassandra> running = LocalCassandra.attach(dataDir);
        switch (command) {
            case "start" -> {
                if (running.isPresent()) {
                    err.println("local Cassandra already runs on " + running.get().dataDir() + " (pid "
                            + running.get().pid() + ")");
                    out.println(running.get().cqlPort());
                    return 0;
                }
                long started = System.nanoTime();
                LocalCassandra node = LocalCassandra.start(dataDir, LocalCassandra.Options.defaults().detached());
                err.printf("local Cassandra ready on %s in %.1f s (pid %d, data %s, log %s)%n", node.contactPoint(),
                        (System.nanoTime() - started) / 1e9, node.pid(), node.dataDir(),
                        node.dataDir().resolve("logs").resolve("cassandra.out"));
                out.println(node.cqlPort());
                return 0;
            }
            case "run" -> {
                if (running.isPresent()) {
                    err.println("local Cassandra already runs on " + running.get().dataDir() + " (pid "
                            + running.get().pid() + ")");
                    return 1;
                }
                LocalCassandra node = LocalCassandra.start(dataDir, LocalCassandra.Options.defaults());
                err.printf("local Cassandra ready on %s (pid %d, data %s); it ends with this process%n",
                        node.contactPoint(), node.pid(), node.dataDir());
                out.println(node.cqlPort());
                out.flush();
                node.awaitExit();
                return 0;
            }
            case "stop" -> {
                if (running.isEmpty()) {
                    err.println("no local Cassandra runs on " + dataDir.toAbsolutePath().normalize());
                    return 0;
                }
                running.get().stop();
                err.println("stopped local Cassandra (pid " + running.get().pid() + ")");
                return 0;
            }
            case "status" -> {
                if (running.isEmpty()) {
                    err.println("no local Cassandra runs on " + dataDir.toAbsolutePath().normalize());
                    return 1;
                }
                out.println(running.get().cqlPort());
                return 0;
            }
            default -> {
                err.println("unknown command: " + command + "\n" + USAGE);
                return 2;
            }
        }
    }
}
