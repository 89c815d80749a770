package io.kubepekko.e2e.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A class-data sharing archive of the API server's classes for the server JVMs the tests start
 * ({@link ServerProcess}), as {@code cluster-config/bin/apiserver} keeps one for its starts: a JVM
 * that maps the classes from it skips reading, parsing and verifying them, about a third of a
 * server's start (docs/benchmarks/cold.md). The test run starts dozens of server JVMs (a failover
 * test alone ten), each of them paying that again without it.
 *
 * <p>Made once per classpath and JDK, under {@code target/server-cds} of the module, by one start
 * of the server that served and then stopped ({@code -XX:ArchiveClassesAtExit}), and kept only when
 * the JVM accepts it; every later start maps it. Class loading is all it changes: a JVM that cannot
 * map it (another classpath, another JDK) starts from the jars as before, and so does every start
 * when the archive could not be made (the reason is printed once). Another test JVM making it at
 * the same time is not waited for: this one's starts go without until the archive is there.
 */
final class ServerArchive {
    private static final String MAIN_CLASS = "io.kubepekko.http.server.ApiServerMain";
    private static final Duration MAKE_TIMEOUT = Duration.ofSeconds(120);

    /** Quiet: the JVM's notes on an archive it does not take are not the test's business. */
    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    private static boolean attempted;

    private ServerArchive() {}

    /**
     * The server JVM's classpath: this test JVM's, without the directory of the tests' own classes
     * (the server runs from the modules' jars and never loads a test class; a non-empty directory
     * on the classpath would rule the archive out).
     */
    static String classpath() {
        Path tests = testClasses();
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> !e.isEmpty() && !Path.of(e).toAbsolutePath().equals(tests))
                .reduce((a, b) -> a + File.pathSeparator + b)
                .orElse("");
    }

    /**
     * The JVM options that map the archive for {@code classpath}, made first if this JVM has not
     * tried yet; none when there is no archive.
     */
    static synchronized List<String> options(String classpath) {
        Optional<Path> archive = archiveFor(classpath);
        if (archive.isEmpty()) {
            return List.of();
        }
        if (!Files.isRegularFile(archive.get()) && !attempted) {
            attempted = true;
            make(archive.get(), classpath);
        }
        if (!Files.isRegularFile(archive.get())) {
            return List.of();
        }
        List<String> options = new ArrayList<>(List.of("-XX:SharedArchiveFile=" + archive.get()));
        options.addAll(QUIET);
        return options;
    }

    /**
     * Where the archive for {@code classpath} is: named after the JDK and every entry's path, size
     * and date, so a rebuilt jar or another JDK finds none. Empty when the classpath has a
     * non-empty directory (an IDE's run from class directories), which the JVM cannot archive.
     */
    private static Optional<Path> archiveFor(String classpath) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(System.getProperty("java.home").getBytes(StandardCharsets.UTF_8));
            for (String entry : classpath.split(File.pathSeparator)) {
                Path p = Path.of(entry);
                if (Files.isDirectory(p)) {
                    try (Stream<Path> files = Files.list(p)) {
                        if (files.findAny().isPresent()) {
                            return Optional.empty();
                        }
                    }
                }
                String stamp =
                        Files.exists(p)
                                ? entry + " " + Files.size(p) + " " + Files.getLastModifiedTime(p)
                                : entry + " -";
                digest.update(stamp.getBytes(StandardCharsets.UTF_8));
            }
            String key = HexFormat.of().formatHex(digest.digest()).substring(0, 16);
            return Optional.of(directory().resolve("server-" + key + ".jsa"));
        } catch (IOException e) {
            return Optional.empty();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts a server that writes the archive when it exits, waits until it serves, stops it with
     * SIGTERM and keeps the archive if the JVM accepts it. Another JVM holding the lock is making
     * one: then nothing is done here.
     */
    private static void make(Path archive, String classpath) {
        Path dir = archive.getParent();
        Path lock = dir.resolve("making");
        Path scratch = null;
        try {
            Files.createDirectories(dir);
            clearStaleLock(lock);
            Files.createDirectory(lock);
        } catch (FileAlreadyExistsException e) {
            return;
        } catch (IOException e) {
            System.err.println("[kubepekko e2e] no server class-data archive: " + e);
            return;
        }
        long started = System.nanoTime();
        try {
            Files.writeString(lock.resolve("pid"), Long.toString(ProcessHandle.current().pid()));
            scratch = Files.createTempDirectory("kubepekko-server-cds-");
            Path part = dir.resolve(archive.getFileName() + ".part");
            Path ready = scratch.resolve("ready");
            Files.deleteIfExists(part);
            List<String> command = new ArrayList<>(List.of(java(), "-Xms64m", "-Xmx512m"));
            command.add("-XX:TieredStopAtLevel=1");
            command.add("-XX:ArchiveClassesAtExit=" + part);
            command.addAll(QUIET);
            command.add("-Dkubepekko.ready-file=" + ready);
            command.addAll(List.of("-cp", classpath, MAIN_CLASS));
            command.addAll(
                    List.of(
                            "--data-dir",
                            scratch.resolve("data").toString(),
                            "--bind-address",
                            "127.0.0.1",
                            "--secure-port",
                            Integer.toString(ServerProcess.freePort())));
            Process server =
                    new ProcessBuilder(command)
                            .redirectErrorStream(true)
                            .redirectOutput(dir.resolve("making.log").toFile())
                            .start();
            String why = serveAndStop(server, ready);
            if (why == null && accepted(part, classpath)) {
                removeOthers(dir);
                Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
                System.err.printf(
                        "[kubepekko e2e] made the server class-data archive %s in %.1f s%n",
                        archive, (System.nanoTime() - started) / 1e9);
            } else {
                Files.deleteIfExists(part);
                System.err.println(
                        "[kubepekko e2e] no server class-data archive ("
                                + (why != null ? why : "the JVM refused it")
                                + "; see "
                                + dir.resolve("making.log")
                                + "): servers start without");
            }
        } catch (IOException e) {
            System.err.println("[kubepekko e2e] no server class-data archive: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            deleteTree(lock);
            if (scratch != null) {
                deleteTree(scratch);
            }
        }
    }

    /** Null once the server served and then exited by itself on SIGTERM; else why not. */
    private static String serveAndStop(Process server, Path ready) throws InterruptedException {
        long deadline = System.nanoTime() + MAKE_TIMEOUT.toNanos();
        while (!Files.exists(ready)) {
            if (!server.isAlive()) {
                return "the server exited with code " + server.exitValue() + " before it served";
            }
            if (System.nanoTime() > deadline) {
                Processes.killTree(server);
                return "the server did not serve within " + MAKE_TIMEOUT;
            }
            // Waiting on the process rather than sleeping: it returns at once if it dies.
            server.waitFor(100, TimeUnit.MILLISECONDS);
        }
        server.destroy(); // SIGTERM: a graceful stop, after which the JVM writes the archive
        if (!server.waitFor(MAKE_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            Processes.killTree(server);
            return "the server did not stop within " + MAKE_TIMEOUT;
        }
        return null;
    }

    /** Whether a JVM maps {@code archive} for {@code classpath} (it refuses a bad one at once). */
    private static boolean accepted(Path archive, String classpath)
            throws IOException, InterruptedException {
        if (!Files.isRegularFile(archive)) {
            return false;
        }
        Process check =
                new ProcessBuilder(
                                java(),
                                "-Xshare:on",
                                "-XX:SharedArchiveFile=" + archive,
                                "-Xlog:disable",
                                "-cp",
                                classpath,
                                "-version")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
        if (!check.waitFor(60, TimeUnit.SECONDS)) {
            check.destroyForcibly();
            return false;
        }
        return check.exitValue() == 0;
    }

    /** A lock whose holder is gone (its JVM was killed while making the archive) is stale. */
    private static void clearStaleLock(Path lock) throws IOException {
        Path pid = lock.resolve("pid");
        if (!Files.isDirectory(lock)) {
            return;
        }
        boolean alive;
        try {
            alive =
                    ProcessHandle.of(Long.parseLong(Files.readString(pid).strip()))
                            .map(ProcessHandle::isAlive)
                            .orElse(false);
        } catch (IOException | NumberFormatException e) {
            // No pid yet: its holder is between creating the lock and writing it, or died there.
            alive =
                    Files.getLastModifiedTime(lock).toMillis()
                            > System.currentTimeMillis() - 60_000;
        }
        if (!alive) {
            deleteTree(lock);
        }
    }

    /** Archives of other classpaths or JDKs: a rebuild left them behind. */
    private static void removeOthers(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().endsWith(".jsa")) {
                    Files.deleteIfExists(f);
                }
            }
        }
    }

    private static Path directory() {
        return testClasses().getParent().resolve("server-cds");
    }

    /** Where this class was loaded from: the module's {@code target/test-classes}. */
    private static Path testClasses() {
        try {
            return Path.of(
                            ServerArchive.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI())
                    .toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort
        }
    }
}
