package io.kubepekko.e2e.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The machine's cgroups under {@code kubepods} as the tests see them, read independently of the
 * agent's own code: every hierarchy (each cgroup v1 controller mount and the cgroup2 mount) from
 * {@code /proc/self/mountinfo}.
 */
public final class NodeCgroups {
    private NodeCgroups() {}

    /**
     * The mount points of the cgroup and cgroup2 file systems (the type follows the {@code -}
     * field).
     */
    public static List<Path> hierarchies() {
        List<Path> out = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mountinfo"))) {
                List<String> fields = List.of(line.split(" "));
                int separator = fields.indexOf("-");
                if (separator > 0
                        && separator + 1 < fields.size()
                        && (fields.get(separator + 1).equals("cgroup")
                                || fields.get(separator + 1).equals("cgroup2"))) {
                    out.add(Path.of(fields.get(4)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Every {@code pod<uid>} cgroup of the pod, at any QoS level, in any hierarchy. */
    public static List<Path> ofPod(String uid) {
        return underKubepods().stream()
                .filter(p -> p.getFileName().toString().equals("pod" + uid))
                .toList();
    }

    /**
     * The cgroups under (and including) {@code kubepods} without processes and without children:
     * nothing uses them.
     */
    public static List<Path> emptyUnderKubepods() {
        return underKubepods().stream().filter(NodeCgroups::empty).toList();
    }

    private static List<Path> underKubepods() {
        return underKubepods(3);
    }

    private static List<Path> underKubepods(int attempts) {
        List<Path> out = new ArrayList<>();
        for (Path hierarchy : hierarchies()) {
            Path kubepods = hierarchy.resolve("kubepods");
            if (!Files.isDirectory(kubepods)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(kubepods)) {
                walk.filter(Files::isDirectory).forEach(out::add);
            } catch (IOException | UncheckedIOException e) {
                if (attempts <= 1) {
                    throw new IllegalStateException("cannot walk " + kubepods, e);
                }
                return underKubepods(attempts - 1); // a cgroup removed while walking: look again
            }
        }
        return out;
    }

    private static boolean empty(Path cgroup) {
        try (Stream<Path> children = Files.list(cgroup)) {
            return children.noneMatch(Files::isDirectory)
                    && Files.readString(cgroup.resolve("cgroup.procs")).isBlank();
        } catch (IOException e) {
            return false; // gone meanwhile
        }
    }
}
