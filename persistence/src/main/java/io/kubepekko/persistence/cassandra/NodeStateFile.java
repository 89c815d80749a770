package io.kubepekko.persistence.cassandra;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

/**
 * The file a running node keeps in its data directory ({@value #NAME}: pid, host, ports, start
 * time), so another process can find the node and stop it. A record whose process is gone, or whose
 * pid now belongs to another process, is stale and removed.
 */
final class NodeStateFile {
    private NodeStateFile() {}

    static final String NAME = "local-cassandra.properties";

    /** A running node as its state file records it. */
    record Recorded(String host, int cqlPort, int storagePort, ProcessHandle process) {}

    /** The node recorded in {@code dir}, if its process still runs. */
    static Optional<Recorded> read(Path dir) throws IOException {
        Path state = dir.resolve(NAME);
        if (!Files.isRegularFile(state)) {
            return Optional.empty();
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(state)) {
            p.load(in);
        }
        Optional<ProcessHandle> handle =
                ProcessHandle.of(Long.parseLong(p.getProperty("pid")))
                        .filter(ProcessHandle::isAlive)
                        .filter(h -> sameStart(h, p.getProperty("started", "")));
        if (handle.isEmpty()) {
            Files.deleteIfExists(state); // left behind by a node that died or was killed
            return Optional.empty();
        }
        return Optional.of(
                new Recorded(
                        p.getProperty("host"),
                        Integer.parseInt(p.getProperty("cqlPort")),
                        Integer.parseInt(p.getProperty("storagePort")),
                        handle.get()));
    }

    /** Records the node, replacing the file at once so a reader never sees half of it. */
    static void write(Path dir, Recorded node) throws IOException {
        Properties p = new Properties();
        p.setProperty("pid", Long.toString(node.process().pid()));
        p.setProperty("host", node.host());
        p.setProperty("cqlPort", Integer.toString(node.cqlPort()));
        p.setProperty("storagePort", Integer.toString(node.storagePort()));
        node.process()
                .info()
                .startInstant()
                .ifPresent(at -> p.setProperty("started", at.toString()));
        Path partial = dir.resolve(NAME + ".part");
        try (OutputStream out = Files.newOutputStream(partial)) {
            p.store(
                    out,
                    "a running local Cassandra (written by "
                            + LocalCassandra.class.getName()
                            + ")");
        }
        Files.move(
                partial,
                dir.resolve(NAME),
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    static void delete(Path dir) throws IOException {
        Files.deleteIfExists(dir.resolve(NAME));
    }

    /**
     * Guards against a recycled pid: only the process that started when the recorded one did is
     * ours to stop (the command line cannot tell: the OS cuts it off long before the main class).
     */
    private static boolean sameStart(ProcessHandle handle, String recorded) {
        return handle.info()
                .startInstant()
                .map(Object::toString)
                .map(recorded::equals)
                .orElse(true);
    }
}
