package io.kubepekko.agent.logs;

import io.kubepekko.agent.cri.CriRuntime;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.time.Clock;
import java.time.LocalDateTime;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

/**
 * Carries out {@link LogRotationPlan} on one container's log file: the kubelet's {@code
 * processContainer} and {@code rotateLog}. Blocking (file system and a CRI call awaited): run it
 * off actor threads. Compression uses the JDK's gzip, the format kube writes ({@code .gz}).
 */
public final class ContainerLogRotator {

    /** What {@link #rotate} did. */
    public enum Outcome {
        KEPT,
        REOPENED,
        ROTATED
    }

    private final CriRuntime cri;
    private final LogRotationPolicy policy;
    private final Clock clock;

    public ContainerLogRotator(CriRuntime cri, LogRotationPolicy policy, Clock clock) {
        this.cri = cri;
        this.policy = policy;
        this.clock = clock;
    }

    /**
     * Rotates {@code log}, the log file of the running container {@code containerId}, if it reached
     * the size limit. When the runtime does not reopen the log, the rotated file is renamed back so
     * the next round tries again.
     *
     * @throws IOException a file operation failed (the files are left as they were after the last
     *     step that worked)
     * @throws CompletionException the runtime refused or did not answer {@code ReopenContainerLog}
     */
    public Outcome rotate(String containerId, Path log) throws IOException {
        Path dir = log.getParent();
        OptionalLong size = sizeOf(log);
        List<String> siblings;
        try (Stream<Path> files = Files.list(dir)) {
            siblings = files.map(p -> p.getFileName().toString()).toList();
        }
        LogRotationPlan.Action action =
                LogRotationPlan.plan(
                        log.getFileName().toString(),
                        size,
                        siblings,
                        policy,
                        LocalDateTime.now(clock));
        if (action instanceof LogRotationPlan.Keep) {
            return Outcome.KEPT;
        }
        if (action instanceof LogRotationPlan.Reopen) {
            reopen(containerId);
            return Outcome.REOPENED;
        }
        LogRotationPlan.Rotate rotate = (LogRotationPlan.Rotate) action;
        for (String name : rotate.remove()) {
            Files.deleteIfExists(dir.resolve(name));
        }
        for (String name : rotate.compress()) {
            compress(dir.resolve(name));
        }
        Path rotated = dir.resolve(rotate.rotatedName());
        Files.move(log, rotated, StandardCopyOption.ATOMIC_MOVE);
        try {
            reopen(containerId);
        } catch (RuntimeException e) {
            // The runtime still writes to the renamed file: give it its name back (kube: else the
            // log is lost on restart).
            Files.move(rotated, log, StandardCopyOption.ATOMIC_MOVE);
            throw e;
        }
        return Outcome.ROTATED;
    }

    private void reopen(String containerId) {
        cri.reopenContainerLog(containerId).toCompletableFuture().join();
    }

    private static OptionalLong sizeOf(Path log) throws IOException {
        try {
            return OptionalLong.of(Files.size(log));
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * {@code compressLog}: {@code name} → {@code name.tmp} (gzip) → {@code name.gz}, then {@code
     * name} removed.
     */
    static void compress(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + LogRotationPlan.TEMPORARY);
        Path gz = file.resolveSibling(file.getFileName() + LogRotationPlan.COMPRESSED);
        try {
            try (InputStream in = Files.newInputStream(file);
                    OutputStream out = new GZIPOutputStream(Files.newOutputStream(tmp))) {
                in.transferTo(out);
            }
            PosixFileAttributeView view =
                    Files.getFileAttributeView(tmp, PosixFileAttributeView.class);
            if (view != null) {
                view.setPermissions(Files.getPosixFilePermissions(file));
            }
            Files.move(
                    tmp, gz, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        Files.delete(file);
    }
}
