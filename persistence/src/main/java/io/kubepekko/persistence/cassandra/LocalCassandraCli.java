package io.kubepekko.persistence.cassandra;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;

/** The command line of {@link LocalCassandra}, as {@code cluster-config/bin/cassandra} runs it. */
final class LocalCassandraCli {
    static final String USAGE =
            "usage: cassandra start|run|stop|status [--data-dir DIR] (default DIR: ./data/cassandra)\n"
                    + "                 [--cql-port P] [--storage-port P]  (start and run)\n"
                    + "  start: in the background, prints the CQL port; run: in the foreground until this process ends.\n"
                    + "  Both listen on the ports of DIR's previous run (its clients look for it there), free ones on a\n"
                    + "  new DIR, or those given; they fail, naming the port, when another process holds one of them.";

    private static final Set<String> FLAGS = Set.of("--data-dir", "--cql-port", "--storage-port");

    private LocalCassandraCli() {}

    /** Runs one command; returns the exit code (2 for a usage error, as the server's flags do). */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String command = args[0];
        Path dataDir = Path.of("data", "cassandra");
        int cqlPort = 0;
        int storagePort = 0;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            String flag = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            String value;
            if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                err.println(
                        (FLAGS.contains(flag)
                                        ? flag + " needs a value"
                                        : "unknown argument: " + arg)
                                + "\n"
                                + USAGE);
                return 2;
            }
            switch (flag) {
                case "--data-dir" -> dataDir = Path.of(value);
                case "--cql-port", "--storage-port" -> {
                    if (!value.matches("[0-9]{1,5}")
                            || Integer.parseInt(value) < 1
                            || Integer.parseInt(value) > 65535) {
                        err.println(
                                flag + " must be a port number (1-65535): " + value + "\n" + USAGE);
                        return 2;
                    }
                    if (flag.equals("--cql-port")) {
                        cqlPort = Integer.parseInt(value);
                    } else {
                        storagePort = Integer.parseInt(value);
                    }
                }
                default -> {
                    err.println("unknown argument: " + arg + "\n" + USAGE);
                    return 2;
                }
            }
        }
        if (cqlPort != 0 && cqlPort == storagePort) {
            err.println(
                    "--cql-port and --storage-port must differ: both are "
                            + cqlPort
                            + "\n"
                            + USAGE);
            return 2;
        }
        if ((cqlPort != 0 || storagePort != 0)
                && !command.equals("start")
                && !command.equals("run")) {
            err.println("--cql-port and --storage-port are for start and run\n" + USAGE);
            return 2;
        }
        LocalCassandra.Options options =
                LocalCassandra.Options.defaults()
                        .reusingPorts()
                        .onPorts(new NodePorts(storagePort, cqlPort));
        Optional<LocalCassandra> running = LocalCassandra.attach(dataDir);
        switch (command) {
            case "start" -> {
                if (running.isPresent()) {
                    err.println(
                            "local Cassandra already runs on "
                                    + running.get().dataDir()
                                    + " (pid "
                                    + running.get().pid()
                                    + ")");
                    out.println(running.get().cqlPort());
                    return 0;
                }
                long started = System.nanoTime();
                LocalCassandra node;
                try {
                    node = LocalCassandra.start(dataDir, options.detached());
                } catch (LocalCassandra.PortInUseException e) {
                    err.println("cassandra: " + e.getMessage());
                    return 1;
                }
                err.printf(
                        "local Cassandra ready on %s in %.1f s (pid %d, data %s, log %s)%n",
                        node.contactPoint(),
                        (System.nanoTime() - started) / 1e9,
                        node.pid(),
                        node.dataDir(),
                        node.dataDir().resolve("logs").resolve("cassandra.out"));
                out.println(node.cqlPort());
                return 0;
            }
            case "run" -> {
                if (running.isPresent()) {
                    err.println(
                            "local Cassandra already runs on "
                                    + running.get().dataDir()
                                    + " (pid "
                                    + running.get().pid()
                                    + ")");
                    return 1;
                }
                LocalCassandra node;
                try {
                    node = LocalCassandra.start(dataDir, options);
                } catch (LocalCassandra.PortInUseException e) {
                    err.println("cassandra: " + e.getMessage());
                    return 1;
                }
                err.printf(
                        "local Cassandra ready on %s (pid %d, data %s); it ends with this process%n",
                        node.contactPoint(), node.pid(), node.dataDir());
                out.println(node.cqlPort());
                out.flush();
                node.awaitExit();
                return 0;
            }
            case "stop" -> {
                if (running.isEmpty()) {
                    err.println(
                            "no local Cassandra runs on " + dataDir.toAbsolutePath().normalize());
                    return 0;
                }
                running.get().stop();
                err.println("stopped local Cassandra (pid " + running.get().pid() + ")");
                return 0;
            }
            case "status" -> {
                if (running.isEmpty()) {
                    err.println(
                            "no local Cassandra runs on " + dataDir.toAbsolutePath().normalize());
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
