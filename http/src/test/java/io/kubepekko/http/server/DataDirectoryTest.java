package io.kubepekko.http.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data directory and the files in it are the owner's only (they hold Secrets and the admin
 * kubeconfig).
 */
class DataDirectoryTest {

    @TempDir Path tmp;

    private static String mode(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void aNewDirectoryIsCreatedOwnerOnly() throws Exception {
        Path dir = tmp.resolve("a/data");
        DataDirectory.prepare(dir);
        assertEquals("rwx------", mode(dir));
    }

    @Test
    void anExistingOpenDirectoryIsRestricted() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        DataDirectory.prepare(dir);
        assertEquals("rwx------", mode(dir));
    }

    @Test
    void filesTheStorageCreatedAreRestricted() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Path db = Files.writeString(dir.resolve("kubepekko.mv.db"), "x");
        Files.setPosixFilePermissions(db, PosixFilePermissions.fromString("rw-r--r--"));
        DataDirectory.restrictFiles(dir);
        assertEquals("rw-------", mode(db));
    }

    @Test
    void theKubeconfigIsWrittenOwnerOnly() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("data"));
        Path file =
                Kubeconfig.writeContent(
                        dir,
                        Kubeconfig.renderTls("https://127.0.0.1:6443", "ca", Optional.empty()));
        assertEquals("rw-------", mode(file));
        String text = Files.readString(file);
        assertEquals(true, text.contains("    server: https://127.0.0.1:6443\n"), text);
        Kubeconfig.writeContent(dir, "other"); // replaced atomically, still private
        assertEquals("rw-------", mode(file));
        assertEquals(false, Files.exists(dir.resolve("admin.kubeconfig.tmp")));
    }
}
