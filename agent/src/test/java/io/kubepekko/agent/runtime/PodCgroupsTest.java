package io.kubepekko.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a temporary tree standing in for the hierarchies: an empty directory is a cgroup rmdir
 * takes, a directory holding a file stands for a cgroup that still has processes (rmdir refuses
 * both the same way).
 */
class PodCgroupsTest {

    @TempDir Path dir;

    private Path memory;
    private Path cpu;
    private Path unified;
    private PodCgroups cgroups;

    @BeforeEach
    void hierarchies() {
        memory = dir.resolve("memory");
        cpu = dir.resolve("cpu");
        unified = dir.resolve("unified");
        cgroups = PodCgroups.of(List.of(memory, cpu, unified));
    }

    @Test
    void theHierarchiesAreTheCgroupAndCgroup2MountsOfMountinfo() {
        String mountinfo =
                """
                25 30 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
                30 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw
                33 25 0:28 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
                34 33 0:29 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw
                38 33 0:33 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,memory
                39 33 0:34 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime - cgroup cgroup rw,cpu,cpuacct
                40 33 0:35 / /sys/fs/cgroup/odd\\040name rw shared:1 master:2 - cgroup cgroup rw,pids
                41 30 0:36 / /mnt/cgroup-lookalike rw - ext4 /dev/sdb1 rw
                """;
        assertEquals(
                List.of(
                        Path.of("/sys/fs/cgroup/unified"),
                        Path.of("/sys/fs/cgroup/memory"),
                        Path.of("/sys/fs/cgroup/cpu,cpuacct"),
                        Path.of("/sys/fs/cgroup/odd name")),
                PodCgroups.hierarchies(mountinfo));
    }

    @Test
    void aPodsCgroupGoesFromEveryHierarchyWithWhatIsLeftUnderIt() throws IOException {
        Path left = Files.createDirectories(memory.resolve("kubepods/besteffort/podu1/0123abc"));
        Files.createDirectories(cpu.resolve("kubepods/besteffort/podu1"));
        Files.createDirectories(unified.resolve("kubepods/besteffort/podu1"));
        Path other = Files.createDirectories(memory.resolve("kubepods/besteffort/podu2"));

        assertEquals(List.of(), cgroups.remove("u1"));

        assertFalse(Files.exists(left));
        for (Path h : List.of(memory, cpu, unified)) {
            assertFalse(Files.exists(h.resolve("kubepods/besteffort/podu1")), h.toString());
            assertTrue(
                    Files.isDirectory(h.resolve("kubepods/besteffort")),
                    "the QoS level stays: " + h);
        }
        assertTrue(Files.isDirectory(other), "another pod's cgroup is not touched");
    }

    @Test
    void theQosLevelDoesNotMatter() throws IOException {
        Files.createDirectories(memory.resolve("kubepods/podg"));
        Files.createDirectories(cpu.resolve("kubepods/burstable/podb"));

        cgroups.remove("g");
        cgroups.remove("b");

        assertFalse(Files.exists(memory.resolve("kubepods/podg")));
        assertFalse(Files.exists(cpu.resolve("kubepods/burstable/podb")));
    }

    @Test
    void aCgroupStillInUseStaysAndIsReportedWhileTheRestGoes() throws IOException {
        Path busy = Files.createDirectories(memory.resolve("kubepods/burstable/podu3/busy"));
        Files.writeString(busy.resolve("cgroup.procs"), "4242\n");
        Path idle = Files.createDirectories(memory.resolve("kubepods/burstable/podu3/idle"));
        Path elsewhere = Files.createDirectories(cpu.resolve("kubepods/burstable/podu3"));

        List<String> failures = cgroups.remove("u3");

        assertEquals(2, failures.size(), failures.toString());
        assertTrue(failures.get(0).startsWith(busy.toString()), failures.toString());
        assertTrue(failures.get(1).startsWith(busy.getParent().toString()), failures.toString());
        assertTrue(
                Files.exists(busy.resolve("cgroup.procs")),
                "nothing is taken from a cgroup in use");
        assertFalse(Files.exists(idle));
        assertFalse(Files.exists(elsewhere), "the other hierarchies still go");
    }

    @Test
    void aPodWithoutACgroupOrMissingHierarchiesAreFine() {
        assertEquals(List.of(), cgroups.remove("nothing"));
        assertEquals(Set.of(), cgroups.podUids());
        assertEquals(List.of(), PodCgroups.NONE.remove("nothing"));
    }

    @Test
    void thePodUidsAreThoseWithACgroupAtAnyLevelInAnyHierarchy() throws IOException {
        Files.createDirectories(memory.resolve("kubepods/poda/container"));
        Files.createDirectories(cpu.resolve("kubepods/burstable/podb"));
        Files.createDirectories(unified.resolve("kubepods/besteffort/podc"));
        Files.createDirectories(unified.resolve("kubepods/besteffort/not-a-pod"));
        Files.createDirectories(unified.resolve("kubepods/besteffort/pod"));
        Files.createDirectories(memory.resolve("elsewhere/podd"));

        assertEquals(Set.of("a", "b", "c"), cgroups.podUids());
    }
}
