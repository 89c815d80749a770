package io.kubepekko.http.audit;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * A log file that rotates by size, with the semantics of lumberjack (the writer kube-apiserver's
 * audit log uses): a write that would take the file past {@code maxSize} first renames it to {@code
 * <name>-<UTC timestamp>.<ext>} (timestamp {@code 2006-01-02T15-04-05.000}) and starts a new one;
 * then backups beyond {@code maxBackups} (0: keep all) and older than {@code maxAge} (zero: keep
 * all) are removed. A maximum size of 0 means lumberjack's 100 MB. Files are created mode 0600
 * (their directory 0700), as kube creates the audit log.
 *
 * <p>Not thread-safe: the audit log's single writer thread owns it. No Java library does this
 * naming and retention (logback's rolling policies name backups by index or date pattern and do not
 * prune by age this way), so it is written here, small.
 */
final class RotatingFile implements AutoCloseable {
    /** lumberjack's default, used when the maximum size is 0. */
    static final long DEFAULT_MAX_BYTES = 100L * 1024 * 1024;

    private static final DateTimeFormatter BACKUP_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss.SSS");
    private static final Set<PosixFilePermission> FILE_MODE =
            PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> DIR_MODE =
            PosixFilePermissions.fromString("rwx------");

    private final Path file;
    private final long maxBytes;
    private final int maxBackups;
    private final Duration maxAge;
    private final Clock clock;
    private final String prefix;
    private final String ext;
    private OutputStream out;
    private long size;

    /**
     * @param file the log file
     * @param maxBytes the size past which it rotates; 0 for lumberjack's 100 MB
     * @param maxBackups how many rotated files to keep; 0 keeps all
     * @param maxAge how old a rotated file may get (by the time in its name); zero keeps all
     * @param clock the time for backup names and age
     */
    RotatingFile(Path file, long maxBytes, int maxBackups, Duration maxAge, Clock clock) {
        this.file = file;
        this.maxBytes = maxBytes == 0 ? DEFAULT_MAX_BYTES : maxBytes;
        this.maxBackups = maxBackups;
        this.maxAge = maxAge;
        this.clock = clock;
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        this.prefix = (dot <= 0 ? name : name.substring(0, dot)) + "-";
        this.ext = dot <= 0 ? "" : name.substring(dot);
    }

    /** Creates the file (and its directory) now, so a bad path fails at start, as in kube. */
    void ensureExists() throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            Files.createDirectories(dir, asAttribute(DIR_MODE));
        }
        if (!Files.exists(file)) {
            try {
                Files.createFile(file, asAttribute(FILE_MODE));
            } catch (FileAlreadyExistsException e) {
                // created meanwhile: fine
            } catch (UnsupportedOperationException e) {
                Files.createFile(file);
            }
        }
    }

    /** Writes {@code bytes} (one or more whole lines), rotating first when they would not fit. */
    void write(byte[] bytes) throws IOException {
        if (bytes.length > maxBytes) {
            throw new IOException(
                    "write length " + bytes.length + " exceeds maximum file size " + maxBytes);
        }
        if (out == null) {
            openExistingOrNew(bytes.length);
        }
        if (size + bytes.length > maxBytes) {
            rotate();
        }
        out.write(bytes);
        out.flush();
        size += bytes.length;
    }

    private void openExistingOrNew(int writeLength) throws IOException {
        ensureExists();
        long existing = Files.size(file);
        if (existing + writeLength >= maxBytes) {
            rotate();
            return;
        }
        out = open();
        size = existing;
    }

    private void rotate() throws IOException {
        close();
        if (Files.exists(file)) {
            Files.move(file, file.resolveSibling(backupName(clock.instant())));
        }
        ensureExists();
        out = open();
        size = 0;
        removeOldBackups();
    }

    private OutputStream open() throws IOException {
        return Channels.newOutputStream(
                FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
    }

    String backupName(Instant at) {
        return prefix + BACKUP_TIME.format(LocalDateTime.ofInstant(at, ZoneOffset.UTC)) + ext;
    }

    /** The rotated files beside the log, newest first, with the time their name carries. */
    List<Backup> backups() throws IOException {
        List<Backup> found = new ArrayList<>();
        Path dir = file.toAbsolutePath().getParent();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String name = p.getFileName().toString();
                if (!Files.isRegularFile(p)
                        || !name.startsWith(prefix)
                        || !name.endsWith(ext)
                        || name.length() <= prefix.length() + ext.length()) {
                    continue;
                }
                String stamp = name.substring(prefix.length(), name.length() - ext.length());
                try {
                    Instant at = LocalDateTime.parse(stamp, BACKUP_TIME).toInstant(ZoneOffset.UTC);
                    found.add(new Backup(p, at));
                } catch (DateTimeParseException e) {
                    // not one of ours (lumberjack skips such files too)
                }
            }
        }
        found.sort(Comparator.comparing(Backup::at).reversed());
        return found;
    }

    record Backup(Path path, Instant at) {}

    private void removeOldBackups() throws IOException {
        if (maxBackups == 0 && maxAge.isZero()) {
            return;
        }
        List<Backup> all = backups();
        List<Backup> remove = new ArrayList<>();
        if (maxBackups > 0 && all.size() > maxBackups) {
            remove.addAll(all.subList(maxBackups, all.size()));
            all = all.subList(0, maxBackups);
        }
        if (!maxAge.isZero()) {
            Instant cutoff = clock.instant().minus(maxAge);
            for (Backup b : all) {
                if (b.at().isBefore(cutoff)) {
                    remove.add(b);
                }
            }
        }
        for (Backup b : remove) {
            Files.deleteIfExists(b.path());
        }
    }

    private static FileAttribute<Set<PosixFilePermission>> asAttribute(
            Set<PosixFilePermission> mode) {
        return PosixFilePermissions.asFileAttribute(mode);
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            OutputStream o = out;
            out = null;
            o.close();
        }
    }
}
