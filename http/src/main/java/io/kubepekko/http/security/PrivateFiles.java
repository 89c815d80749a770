package io.kubepekko.http.security;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes files only their owner may read, mode 0600 from the moment they exist (never created with
 * the umask and narrowed after), and atomically, so a reader never sees half a key.
 */
final class PrivateFiles {
    private PrivateFiles() {}

    static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }

    /** Creates {@code dir} 0700 if it does not exist. */
    static void directory(Path dir) throws IOException {
        if (Files.isDirectory(dir)) {
            return;
        }
        if (posix()) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        } else {
            Files.createDirectories(dir);
        }
    }

    static void write(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (posix()) {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(FILE));
        }
        Files.writeString(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
