package io.kubepekko.agent.logs;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A pod's log directory ({@code <ns>_<pod>_<uid>}) goes with the pod: the kubelet's container GC
 * removes it once the pod's content may be removed (terminated and deleted), {@code
 * evictPodLogsDirectories}.
 */
public final class PodLogs {
    private PodLogs() {}

    /** Removes {@code dir} and everything in it; a directory already gone is fine. Blocking. */
    public static void removeDirectory(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        Files.walkFileTree(
                dir,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
                            throws IOException {
                        delete(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path d, IOException e)
                            throws IOException {
                        if (e != null) {
                            throw e;
                        }
                        delete(d);
                        return FileVisitResult.CONTINUE;
                    }
                });
    }

    private static void delete(Path p) throws IOException {
        try {
            Files.delete(p);
        } catch (NoSuchFileException e) {
            // a file the runtime removed meanwhile
        }
    }
}
