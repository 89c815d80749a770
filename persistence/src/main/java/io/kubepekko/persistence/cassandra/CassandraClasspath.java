package io.kubepekko.persistence.cassandra;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The local Cassandra's classpath: {@code cassandra-all} and its dependencies, resolved by Maven
 * from a one-dependency POM and remembered in a cache directory, so the download happens once per
 * machine. It never joins the application's classpath (it brings its own netty, guava, jackson and
 * logback).
 */
final class CassandraClasspath {
    static final String POM_RESOURCE = "cassandra-server-pom.xml";
    private static final String DEPENDENCY_PLUGIN =
            "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";

    private CassandraClasspath() {}

    /**
     * The classpath, resolving it with {@code mvn} the first time (or when the POM changed or jars
     * vanished).
     */
    static String resolve(Path cacheDir, long timeoutSeconds)
            throws IOException, InterruptedException {
        byte[] pom = pom();
        Files.createDirectories(cacheDir);
        // Keyed by the POM's content: a version bump resolves again instead of running a stale
        // server.
        Path cached = cacheDir.resolve("classpath-" + digest(pom) + ".txt");
        if (Files.isRegularFile(cached)) {
            String classpath = Files.readString(cached).trim();
            if (allExist(classpath)) {
                return classpath;
            }
        }
        Path pomFile = cacheDir.resolve("pom.xml");
        Files.write(pomFile, pom);
        Path partial = Files.createTempFile(cacheDir, "classpath-", ".part");
        Path log = cacheDir.resolve("resolve.log");
        List<String> command =
                new ArrayList<>(
                        List.of(
                                mvn(),
                                "-B",
                                "-q",
                                "-f",
                                pomFile.toString(),
                                DEPENDENCY_PLUGIN + ":build-classpath",
                                "-Dmdep.outputFile=" + partial));
        Process mvn =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        try {
            if (!mvn.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new IOException(
                        "resolving Cassandra's classpath took over "
                                + timeoutSeconds
                                + " s (see "
                                + log
                                + ")");
            }
            if (mvn.exitValue() != 0) {
                throw new IOException(
                        "mvn could not resolve Cassandra's classpath, exit "
                                + mvn.exitValue()
                                + ": "
                                + Files.readString(log).strip());
            }
        } finally {
            mvn.destroyForcibly();
        }
        String classpath = Files.readString(partial).trim();
        if (classpath.isEmpty() || !allExist(classpath)) {
            throw new IOException("mvn wrote an unusable classpath to " + partial);
        }
        // Atomic: two processes resolving at once both end with a whole file.
        Files.move(
                partial,
                cached,
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        return classpath;
    }

    private static String mvn() {
        String configured = System.getProperty("kubepekko.mvn", System.getenv("KUBEPEKKO_MVN"));
        return configured == null || configured.isBlank() ? "mvn" : configured;
    }

    private static boolean allExist(String classpath) {
        for (String entry : classpath.split(File.pathSeparator)) {
            if (!Files.isRegularFile(Path.of(entry))) {
                return false;
            }
        }
        return !classpath.isEmpty();
    }

    static byte[] pom() {
        try (InputStream in = CassandraClasspath.class.getResourceAsStream(POM_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(POM_RESOURCE + " is missing from the classpath");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String digest(byte[] bytes) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
            return HexFormat.of().formatHex(hash, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
