package io.kubepekko.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.e2e.support.ProcessResult;
import io.kubepekko.e2e.support.Processes;
import io.kubepekko.e2e.support.RepositoryRoot;
import io.kubepekko.e2e.support.RunningProcess;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.h2.Driver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data sharing archive of {@code cluster-config/bin/apiserver} (issue 28): a start that
 * finds none writes one at its exit, the next start maps the server's own classes from it, and an
 * archive that is missing, cut short or from a start that never served is never in the way.
 */
class ClassDataSharingE2E {
    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration STOP = Duration.ofSeconds(60);
    private static final String MAIN = "io.kubepekko.http.server.ApiServerMain";

    @TempDir Path scratch;

    @Test
    void aStartThatServedLeavesAnArchiveWhichTheNextStartMapsAndABrokenOneIsIgnored()
            throws Exception {
        Path cds = scratch.resolve("cds");

        // No archive yet: the server starts without one and writes it when it stops.
        run(cds, "first", List.of()).terminate(STOP);
        assertEquals(1, files(cds, ".jsa.part").size(), "dumped at exit: " + files(cds, ""));
        assertEquals(1, files(cds, ".jsa.ready").size(), "that start served: " + files(cds, ""));

        // The next start keeps it and maps the server's classes from it.
        Path mapped = scratch.resolve("mapped.log");
        run(cds, "second", List.of("-Xlog:class+load=info:file=" + mapped)).terminate(STOP);
        List<Path> archives = files(cds, ".jsa");
        assertEquals(1, archives.size(), "kept: " + files(cds, ""));
        assertTrue(files(cds, ".jsa.part").isEmpty(), files(cds, "").toString());
        assertTrue(
                Files.readAllLines(mapped).stream()
                        .anyMatch(l -> l.contains(MAIN + " source: shared objects file (top)")),
                "the server's main class comes from the archive");
        // Bouncy Castle's too: the launch classpath holds its jars without their signature (the
        // JVM never archives a class of a signed jar, and checks a digest for each it loads).
        assertTrue(
                Files.readAllLines(mapped).stream()
                        .anyMatch(
                                l ->
                                        l.contains("org.bouncycastle.")
                                                && l.contains("source: shared objects file (top)")),
                "Bouncy Castle's classes come from the archive");

        // A stale archive under the expected name (made from another classpath, as if a jar had
        // changed unseen): the JVM refuses it quietly and the server starts from its jars.
        Path archive = archives.get(0);
        Path foreign = scratch.resolve("foreign.jsa");
        ProcessResult dump =
                Processes.run(
                        List.of(
                                ProcessHandle.current().info().command().orElse("java"),
                                "-XX:ArchiveClassesAtExit=" + foreign,
                                "-Xlog:cds*=off",
                                "-cp",
                                jarOf(Driver.class).toString(),
                                "org.h2.tools.Shell",
                                "-help"),
                        null,
                        Map.of(),
                        Duration.ofSeconds(60));
        assertTrue(Files.size(foreign) > 0, dump.describe());
        Files.copy(foreign, archive, StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(
                archive.resolveSibling(archive.getFileName() + ".size"),
                Files.size(archive) + "\n");
        Path refused = scratch.resolve("refused.log");
        run(cds, "third", List.of("-Xlog:class+load=info:file=" + refused)).terminate(STOP);
        assertTrue(
                Files.readAllLines(refused).stream()
                        .anyMatch(l -> l.contains(MAIN + " source: file:")),
                "read from its jar");

        // An archive cut short (damaged on disk): the JVM would map it and crash; the script drops
        // it, the server starts from its jars and writes a new one.
        try (RandomAccessFile file = new RandomAccessFile(archive.toFile(), "rw")) {
            file.setLength(file.length() / 2);
        }
        Path unmapped = scratch.resolve("unmapped.log");
        run(cds, "fourth", List.of("-Xlog:class+load=info:file=" + unmapped)).terminate(STOP);
        assertTrue(
                Files.readAllLines(unmapped).stream()
                        .anyMatch(l -> l.contains(MAIN + " source: file:")),
                "read from its jar");
        assertEquals(1, files(cds, ".jsa.part").size(), "a new one dumped: " + files(cds, ""));
    }

    /**
     * No jar the launch script runs is signed: the JVM archives no class of a signed jar and checks
     * a digest of each it loads (the build replaces Bouncy Castle's with unsigned copies; a signed
     * jar that a new dependency brings shows here).
     */
    @Test
    void theLaunchClasspathHoldsNoSignedJar() throws IOException {
        Path classpath = RepositoryRoot.find().resolve("cluster-config/target/runtime.classpath");
        List<String> signed = new ArrayList<>();
        for (String entry : Files.readString(classpath).strip().split(":")) {
            if (!entry.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(entry, false)) {
                if (jar.stream()
                        .map(JarEntry::getName)
                        .anyMatch(n -> n.matches("META-INF/[^/]+\\.(SF|RSA|DSA|EC)"))) {
                    signed.add(entry);
                }
            }
        }
        assertTrue(signed.isEmpty(), "signed jars on the launch classpath: " + signed);
    }

    private static Path jarOf(Class<?> type) throws Exception {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void aStartThatNeverServedLeavesNoArchive() throws Exception {
        Path cds = scratch.resolve("cds");
        for (int i = 0; i < 2; i++) {
            ProcessResult help = script(cds, List.of(), "--help").awaitExit(STOP);
            assertEquals(0, help.exitCode(), help.describe());
            assertTrue(help.stdout().startsWith("Usage: apiserver [flags]"), help.describe());
        }
        // The second --help found the first one's dump without its ready mark and dropped it.
        assertTrue(files(cds, ".jsa").isEmpty(), files(cds, "").toString());
        assertTrue(files(cds, ".jsa.ready").isEmpty(), files(cds, "").toString());
    }

    /** A server on a fresh data directory, once it has logged that it is ready. */
    private RunningProcess run(Path cds, String name, List<String> jvmOptions) throws IOException {
        Path data = Files.createDirectories(scratch.resolve(name));
        RunningProcess server =
                script(
                        cds,
                        jvmOptions,
                        "--data-dir",
                        data.toString(),
                        "--bind-address",
                        "127.0.0.1",
                        "--secure-port",
                        "0");
        try {
            // The server logs to standard error.
            server.awaitErrorLine(
                    l -> l.contains("kubepekko apiserver ready: /readyz passes"), START);
        } catch (AssertionError e) {
            server.close();
            throw e;
        }
        return server;
    }

    private static RunningProcess script(Path cds, List<String> jvmOptions, String... flags) {
        Path root = RepositoryRoot.find();
        List<String> command = new ArrayList<>();
        command.add(root.resolve("cluster-config/bin/apiserver").toString());
        command.addAll(List.of(flags));
        List<String> java = new ArrayList<>(List.of("-Xms256m", "-Xmx1g"));
        java.addAll(jvmOptions);
        return RunningProcess.start(
                command,
                root,
                Map.of(
                        // The build running this test has just packaged the server.
                        "KUBEPEKKO_SKIP_BUILD", "1",
                        "KUBEPEKKO_CDS_DIR", cds.toString(),
                        "KUBEPEKKO_JAVA_OPTS", String.join(" ", java)));
    }

    private static List<Path> files(Path dir, String suffix) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> all = Files.list(dir)) {
            return all.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }
}
