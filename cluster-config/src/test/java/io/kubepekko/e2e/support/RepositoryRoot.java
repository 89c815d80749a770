package io.kubepekko.e2e.support;

import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the repository's root directory from wherever Maven runs the tests. */
public final class RepositoryRoot {
    private static final Path MARKER = Path.of("cluster-config", "bin", "fetch-clients");

    private RepositoryRoot() {}

    /**
     * Maven runs each module's tests with the module directory as working directory (and sets
     * {@code basedir}); the root is the nearest ancestor that holds {@code cluster-config/bin}.
     */
    public static Path find() {
        Path start =
                Path.of(System.getProperty("basedir", System.getProperty("user.dir")))
                        .toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(MARKER))) {
                return dir;
            }
        }
        throw new IllegalStateException("no ancestor of " + start + " contains " + MARKER);
    }
}
