package io.kubepekko.agent.manifest;

import io.kubepekko.api.validation.NameValidation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The manifests posted to the agent's server, kept as files in one directory (under {@code
 * --root-dir}) so that they outlive the agent: a restarted agent runs them again instead of
 * removing their pods as orphans. Each manifest is one file named after it, written whole or not at
 * all (a temporary dot file moved into place); dot files are not manifests. Not thread-safe: one
 * actor ({@link PostedPodSource}) owns it.
 */
public final class PostedManifests {
    /** The directory under {@code --root-dir}. */
    public static final String DIRECTORY = "static-pods";

    private final Path dir;

    public PostedManifests(Path dir) {
        this.dir = dir;
    }

    /** The store of the agent whose {@code --root-dir} is {@code rootDir}. */
    public static PostedManifests under(Path rootDir) {
        return new PostedManifests(rootDir.resolve(DIRECTORY));
    }

    public Path directory() {
        return dir;
    }

    /**
     * Why {@code name} cannot name a manifest, empty when it can: a DNS-1123 subdomain, as an
     * object name (no path separators, no dot files, nothing a file system treats specially).
     */
    public static List<String> nameErrors(String name) {
        return NameValidation.dns1123Subdomain(name);
    }

    /** The stored manifests' names, sorted. */
    public List<String> names() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> !n.startsWith(".") && nameErrors(n).isEmpty())
                    .sorted()
                    .toList();
        }
    }

    /**
     * The manifest {@code name}'s bytes; empty when there is none or it is larger than {@code
     * limit}.
     */
    public Optional<byte[]> read(String name, int limit) throws IOException {
        try {
            return BoundedBytes.readFile(dir.resolve(name), limit);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /** Stores {@code data} as {@code name}, replacing what was there; true when it is new. */
    public boolean put(String name, byte[] data) throws IOException {
        Files.createDirectories(dir);
        Path target = dir.resolve(name);
        boolean created = !Files.exists(target);
        Path tmp = Files.createTempFile(dir, "." + name + ".", ".tmp");
        try {
            try (var out = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap(data));
                out.force(true); // on disk before it replaces the old one
            }
            try {
                Files.move(
                        tmp,
                        target,
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        return created;
    }

    /** Removes {@code name}; false when there was none. */
    public boolean delete(String name) throws IOException {
        return Files.deleteIfExists(dir.resolve(name));
    }

    /** Leftover temporary files of writes cut short (the agent died mid-write). */
    public List<Path> leftovers() throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Path> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(
                            p ->
                                    p.getFileName().toString().startsWith(".")
                                            && p.getFileName().toString().endsWith(".tmp"))
                    .forEach(out::add);
        }
        return out;
    }
}
