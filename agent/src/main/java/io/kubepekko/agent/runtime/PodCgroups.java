package io.kubepekko.agent.runtime;

import io.kubepekko.agent.pod.QosClass;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The pods' cgroups {@code /kubepods/<qos>/pod<uid>} ({@link SandboxConfigs#cgroupParent}) in every
 * cgroup hierarchy of the node: each cgroup v1 controller mount and the v2 unified mount. The
 * runtime creates them for the sandbox and removes only its containers' cgroups, so the agent drops
 * a pod's once the pod is gone, as the kubelet's pod container manager does ({@code
 * podContainerManagerImpl.Destroy} after {@code syncTerminatedPod}, and {@code
 * cleanupOrphanedPodCgroups} for pods no source knows,
 * pkg/kubelet/cm/pod_container_manager_linux.go, pkg/kubelet/kubelet_pods.go). Unlike the kubelet
 * it kills nothing: removal is {@code rmdir} only, which the kernel refuses for a cgroup that still
 * has processes or children, so a pod still running somewhere is never touched.
 */
public final class PodCgroups {
    /** Where the kubelet's cgroupfs driver roots the pods' cgroups in each hierarchy. */
    static final String ROOT = "kubepods";

    private static final String POD_PREFIX = "pod";

    /** No hierarchies: nothing is found or removed (tests that run pods against a fake runtime). */
    public static final PodCgroups NONE = new PodCgroups(List::of);

    private final Supplier<List<Path>> hierarchies;

    private PodCgroups(Supplier<List<Path>> hierarchies) {
        this.hierarchies = hierarchies;
    }

    /**
     * The given hierarchy roots (a temporary tree standing in for {@code
     * /sys/fs/cgroup/<controller>}).
     */
    public static PodCgroups of(List<Path> hierarchies) {
        List<Path> copy = List.copyOf(hierarchies);
        return new PodCgroups(() -> copy);
    }

    /**
     * The hierarchies mounted when asked, read from {@code /proc/self/mountinfo} each time (mounts
     * may change).
     */
    public static PodCgroups ofNode() {
        Path mountinfo = Path.of("/proc/self/mountinfo");
        return new PodCgroups(
                () -> {
                    try {
                        return Files.isReadable(mountinfo)
                                ? hierarchies(Files.readString(mountinfo))
                                : List.of();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
    }

    /**
     * The mount points of the {@code cgroup} and {@code cgroup2} file systems in a mountinfo text
     * (proc(5): the optional fields before the {@code -} separator vary in number, the file system
     * type follows it; octal escapes such as {@code \040} stand for spaces in the mount point).
     */
    public static List<Path> hierarchies(String mountinfo) {
        List<Path> out = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            String[] fields = line.trim().split(" ");
            int separator = List.of(fields).indexOf("-");
            if (separator < 6 || separator + 1 >= fields.length) {
                continue;
            }
            String type = fields[separator + 1];
            if (type.equals("cgroup") || type.equals("cgroup2")) {
                out.add(Path.of(unescape(fields[4])));
            }
        }
        return out;
    }

    /**
     * The uids of the pods that have a cgroup in any hierarchy (kubelet {@code
     * GetAllPodsFromCgroups}).
     */
    public Set<String> podUids() {
        Set<String> uids = new TreeSet<>();
        for (Path level : levels()) {
            for (Path child : subdirectories(level)) {
                String name = child.getFileName().toString();
                if (name.startsWith(POD_PREFIX) && name.length() > POD_PREFIX.length()) {
                    uids.add(name.substring(POD_PREFIX.length()));
                }
            }
        }
        return uids;
    }

    /**
     * Removes the cgroup of the pod {@code uid} in every hierarchy, whatever its QoS level: what is
     * left under it first (empty container cgroups), deepest first, then the pod's own. A cgroup
     * that is missing is fine.
     *
     * @return the cgroups that could not be removed and why (still in use, most likely); empty when
     *     all went
     */
    public List<String> remove(String uid) {
        List<String> failures = new ArrayList<>();
        for (Path level : levels()) {
            removeTree(level.resolve(POD_PREFIX + uid), failures);
        }
        return failures;
    }

    private List<Path> levels() {
        List<Path> out = new ArrayList<>();
        for (Path hierarchy : hierarchies.get()) {
            for (QosClass qos : QosClass.values()) {
                String level = qos.cgroupLevel();
                out.add(
                        level.isEmpty()
                                ? hierarchy.resolve(ROOT)
                                : hierarchy.resolve(ROOT).resolve(level));
            }
        }
        return out;
    }

    private static void removeTree(Path cgroup, List<String> failures) {
        if (!Files.isDirectory(cgroup)) {
            return;
        }
        try {
            for (Path child : subdirectories(cgroup)) {
                removeTree(child, failures);
            }
        } catch (UncheckedIOException e) {
            failures.add(cgroup + ": " + e.getCause());
            return;
        }
        try {
            // A directory: Files.delete is rmdir(2), which a cgroup with processes or children
            // refuses (EBUSY).
            Files.delete(cgroup);
        } catch (NoSuchFileException gone) {
            // removed meanwhile
        } catch (IOException e) {
            failures.add(cgroup + ": " + e);
        }
    }

    private static List<Path> subdirectories(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> list = Files.list(dir)) {
            return list.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).toList();
        } catch (NoSuchFileException gone) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String unescape(String field) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\'
                    && i + 3 < field.length()
                    && field.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
