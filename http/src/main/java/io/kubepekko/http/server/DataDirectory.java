package io.kubepekko.http.server;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's data directory holds every object, Secrets included, and the admin kubeconfig: only
 * its owner may read it, as k3s keeps its server directory. The directory is 0700 and the files in
 * it 0600. On a file system without POSIX permissions nothing is changed.
 */
final class DataDirectory {
    private static final Logger log = LoggerFactory.getLogger(DataDirectory.class);

    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");

    private DataDirectory() {}

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /** Creates the directory (and its parents) if needed, and makes it the owner's only. */
    static void prepare(Path dir) throws IOException {
        if (!posix()) {
            Files.createDirectories(dir);
            return;
        }
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir); // parents as the umask has them
            Files.setPosixFilePermissions(dir, DIRECTORY);
            return;
        }
        Set<PosixFilePermission> before = Files.getPosixFilePermissions(dir);
        if (!before.equals(DIRECTORY)) {
            Files.setPosixFilePermissions(dir, DIRECTORY);
            log.info(
                    "data directory {} was {}: made it {} (it holds Secrets)",
                    dir,
                    PosixFilePermissions.toString(before),
                    PosixFilePermissions.toString(DIRECTORY));
        }
    }

    /**
     * Makes the files directly in the directory the owner's only: the database files the storage
     * created with the process's umask. Called once the storage has created them.
     */
    static void restrictFiles(Path dir) throws IOException {
        if (!posix()) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f) && !Files.getPosixFilePermissions(f).equals(FILE)) {
                    Files.setPosixFilePermissions(f, FILE);
                }
            }
        }
    }

    /**
     * Writes {@code content} to {@code file} atomically, readable by the owner only from the start.
     */
    static void writePrivately(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (posix()) {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(FILE));
        }
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
