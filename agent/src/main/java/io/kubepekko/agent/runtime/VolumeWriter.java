package io.kubepekko.agent.runtime;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Puts a {@link VolumePlan} on disk — the agent's one file-writing step for volumes. Content
 * volumes are written as kube's AtomicWriter does: the payload goes into a fresh hidden directory
 * {@code ..<timestamp>}, the {@code ..data} symlink is swapped to it with a rename, and each
 * top-level entry is a symlink through {@code ..data}; a reader sees the old or the new set, never
 * a mix. An unchanged payload is left alone.
 */
public final class VolumeWriter {
    private VolumeWriter() {}

    static final String DATA_DIR = "..data";
    private static final DateTimeFormatter TS =
            DateTimeFormatter.ofPattern("'..'yyyy_MM_dd_HH_mm_ss.");

    /**
     * Creates or updates every volume of the plan; a hostPath type check that fails is a {@code
     * FailedMount}.
     */
    public static void materialize(VolumePlan plan) throws PodConfigException, IOException {
        for (VolumePlan.Volume v : plan.volumes().values()) {
            if (v instanceof VolumePlan.EmptyDir e) {
                Files.createDirectories(e.hostPath());
                Files.setPosixFilePermissions(e.hostPath(), permissions(e.directoryMode()));
            } else if (v instanceof VolumePlan.HostPath h) {
                checkHostPath(h);
            } else if (v instanceof VolumePlan.Content c) {
                writeAtomically(c.hostPath(), c.files());
            }
        }
    }

    /**
     * Whether the content volume at {@code dir} was set up (its {@code ..data} link is there):
     * mounted, in kube's terms.
     */
    public static boolean isSetUp(Path dir) {
        return Files.isSymbolicLink(dir.resolve(DATA_DIR));
    }

    /**
     * Creates missing subPath directories with the volume's mode (the kubelet does so before the
     * container starts).
     */
    public static void ensureSubPaths(VolumePlanner.ContainerMounts mounts) throws IOException {
        for (VolumePlanner.SubPathDir d : mounts.subPathDirs()) {
            Path p = d.volumePath().resolve(d.subPath()).normalize();
            if (!p.startsWith(d.volumePath().normalize())) {
                throw new IOException("subPath " + d.subPath() + " escapes its volume");
            }
            if (!Files.exists(p)) {
                Files.createDirectories(p);
                Files.setPosixFilePermissions(p, permissions(d.mode()));
            }
        }
        for (VolumePlanner.SubPathCopy c : mounts.subPathCopies()) {
            copySubPath(c);
        }
    }

    /**
     * A content volume's subPath copied once, its links resolved; an existing copy is kept (see
     * SubPathCopy).
     */
    static void copySubPath(VolumePlanner.SubPathCopy c) throws IOException {
        if (Files.exists(c.target(), LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Path volume = c.volumePath().toRealPath();
        Path source = c.volumePath().resolve(c.subPath()).toRealPath();
        if (!source.startsWith(volume)) {
            throw new IOException("subPath " + c.subPath() + " escapes its volume");
        }
        Files.createDirectories(c.target().getParent());
        Path tmp = Files.createTempDirectory(c.target().getParent(), ".copy");
        Path copy = tmp.resolve("x");
        try (Stream<Path> all = Files.walk(source)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path to = copy.resolve(source.relativize(p).toString());
                Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.move(copy, c.target(), StandardCopyOption.ATOMIC_MOVE);
        Files.delete(tmp);
    }

    /**
     * hostPath {@code type} checks (pkg/volume/hostpath {@code checkType}) with kube's messages.
     */
    static void checkHostPath(VolumePlan.HostPath h) throws PodConfigException, IOException {
        Path p = h.hostPath();
        String fail = "hostPath type check failed: " + p + " is not ";
        switch (h.type()) {
            case "" -> {}
            case "DirectoryOrCreate" -> {
                if (!Files.exists(p)) {
                    Files.createDirectories(p);
                    Files.setPosixFilePermissions(p, permissions(0755));
                } else if (!Files.isDirectory(p)) {
                    throw PodConfigException.mount(h.name(), fail + "a directory");
                }
            }
            case "Directory" -> {
                if (!Files.isDirectory(p)) {
                    throw PodConfigException.mount(h.name(), fail + "a directory");
                }
            }
            case "FileOrCreate" -> {
                if (!Files.exists(p)) {
                    // kube does not create the parent directory for FileOrCreate
                    Files.createFile(p);
                    Files.setPosixFilePermissions(p, permissions(0644));
                } else if (!Files.isRegularFile(p)) {
                    throw PodConfigException.mount(h.name(), fail + "a file");
                }
            }
            case "File" -> {
                if (!Files.isRegularFile(p)) {
                    throw PodConfigException.mount(h.name(), fail + "a file");
                }
            }
            case "Socket" -> {
                if (!"socket".equals(fileType(p))) {
                    throw PodConfigException.mount(h.name(), fail + "a socket file");
                }
            }
            case "CharDevice" -> {
                if (!"char".equals(fileType(p))) {
                    throw PodConfigException.mount(h.name(), fail + "a character device");
                }
            }
            case "BlockDevice" -> {
                if (!"block".equals(fileType(p))) {
                    throw PodConfigException.mount(h.name(), fail + "a block device");
                }
            }
            default ->
                    throw PodConfigException.mount(
                            h.name(), h.type() + " is an invalid volume type");
        }
    }

    /** The kind of a special file from its unix mode bits, or "" when absent or ordinary. */
    private static String fileType(Path p) throws IOException {
        if (!Files.exists(p)) {
            return "";
        }
        int mode = (Integer) Files.getAttribute(p, "unix:mode");
        return switch (mode & 0170000) {
            case 0140000 -> "socket";
            case 0020000 -> "char";
            case 0060000 -> "block";
            default -> "";
        };
    }

    /**
     * One writer per volume directory at a time: a container being prepared and a refresh of the
     * pod's volumes run on the blocking pool and may meet (the kubelet serializes operations per
     * volume).
     */
    private static final Object[] LOCKS = new Object[64];

    static {
        Arrays.setAll(LOCKS, i -> new Object());
    }

    /**
     * AtomicWriter's {@code Write}: payload paths are relative, validated, and swapped in as one.
     */
    public static void writeAtomically(Path dir, Map<String, VolumePlan.FileContent> payload)
            throws IOException {
        for (String path : payload.keySet()) {
            validatePath(path);
        }
        synchronized (LOCKS[Math.floorMod(dir.normalize().hashCode(), LOCKS.length)]) {
            write(dir, payload);
        }
    }

    private static void write(Path dir, Map<String, VolumePlan.FileContent> payload)
            throws IOException {
        Files.createDirectories(dir);
        Path dataLink = dir.resolve(DATA_DIR);
        Path current =
                Files.isSymbolicLink(dataLink)
                        ? dir.resolve(Files.readSymbolicLink(dataLink))
                        : null;
        if (current != null && matches(current, payload)) {
            return;
        }
        String prefix = ZonedDateTime.now(ZoneOffset.UTC).format(TS);
        Path ts = Files.createTempDirectory(dir, prefix);
        Files.setPosixFilePermissions(ts, permissions(0755));
        for (var e : payload.entrySet()) {
            Path f = ts.resolve(e.getKey());
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue().data());
            Files.setPosixFilePermissions(f, permissions(e.getValue().mode()));
        }
        Path tmpLink = dir.resolve(DATA_DIR + "_tmp");
        Files.deleteIfExists(tmpLink);
        Files.createSymbolicLink(tmpLink, ts.getFileName());
        Files.move(
                tmpLink,
                dataLink,
                StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);

        Set<String> top = new HashSet<>();
        for (String path : payload.keySet()) {
            top.add(path.split("/", 2)[0]);
        }
        for (String name : top) {
            Path link = dir.resolve(name);
            try {
                Files.createSymbolicLink(link, Path.of(DATA_DIR, name));
            } catch (FileAlreadyExistsException already) {
                // a link from an earlier payload points through ..data already
            }
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String name = p.getFileName().toString();
                if (!name.startsWith("..") && !top.contains(name)) {
                    Files.delete(p);
                }
            }
        }
        if (current != null && !current.equals(ts)) {
            deleteTree(current);
        }
    }

    private static void validatePath(String path) throws IOException {
        if (path.isEmpty() || path.startsWith("/") || path.startsWith("..")) {
            throw new IOException("invalid path: " + path);
        }
        for (String part : path.split("/")) {
            if (part.equals("..")) {
                throw new IOException("invalid path: " + path + " must not contain '..'");
            }
        }
    }

    private static boolean matches(Path dataDir, Map<String, VolumePlan.FileContent> payload)
            throws IOException {
        if (!Files.isDirectory(dataDir)) {
            return false;
        }
        try (Stream<Path> all = Files.walk(dataDir)) {
            long files = all.filter(Files::isRegularFile).count();
            if (files != payload.size()) {
                return false;
            }
        }
        for (var e : payload.entrySet()) {
            Path f = dataDir.resolve(e.getKey());
            if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)
                    || !Files.getPosixFilePermissions(f).equals(permissions(e.getValue().mode()))
                    || !Arrays.equals(Files.readAllBytes(f), e.getValue().data())) {
                return false;
            }
        }
        return true;
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> out = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] bits = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
                    PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
                    PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
                    PosixFilePermission.OWNER_READ
        };
        for (int i = 0; i < bits.length; i++) {
            if ((mode & (1 << i)) != 0) {
                out.add(bits[i]);
            }
        }
        return out;
    }

    /**
     * Creates the empty, world-writable file a container's termination message path is bound to
     * (kube: 0666).
     */
    public static void createTerminationLog(Path hostPath) throws IOException {
        Files.createDirectories(hostPath.getParent());
        if (!Files.exists(hostPath)) {
            Files.createFile(hostPath);
        }
        Files.setPosixFilePermissions(hostPath, permissions(0666));
    }
}
