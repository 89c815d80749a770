package io.kubepekko.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one I/O step: kube's AtomicWriter layout, emptyDir mode, hostPath type checks, subPath
 * directories.
 */
class VolumeWriterTest {
    @TempDir Path tmp;

    private static VolumePlan.FileContent file(String text, int mode) {
        return new VolumePlan.FileContent(text.getBytes(StandardCharsets.UTF_8), mode);
    }

    private static String perms(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    private static List<String> names(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void contentIsWrittenBehindADataSymlinkAndSwappedAtomically() throws Exception {
        Path dir = tmp.resolve("cfg");
        VolumeWriter.writeAtomically(
                dir, Map.of("conf/mode.txt", file("fast", 0400), "level", file("3", 0644)));
        assertTrue(Files.isSymbolicLink(dir.resolve("..data")));
        String first = Files.readSymbolicLink(dir.resolve("..data")).toString();
        assertTrue(first.startsWith(".."), first);
        assertEquals(Path.of("..data/conf"), Files.readSymbolicLink(dir.resolve("conf")));
        assertEquals(Path.of("..data/level"), Files.readSymbolicLink(dir.resolve("level")));
        assertEquals("fast", Files.readString(dir.resolve("conf/mode.txt")));
        assertEquals("r--------", perms(dir.resolve("conf/mode.txt")));
        assertEquals("rw-r--r--", perms(dir.resolve("level")));

        // unchanged payload: nothing is rewritten
        VolumeWriter.writeAtomically(
                dir, Map.of("conf/mode.txt", file("fast", 0400), "level", file("3", 0644)));
        assertEquals(first, Files.readSymbolicLink(dir.resolve("..data")).toString());

        // a new payload replaces the set: new keys appear, removed ones go, the old data dir is
        // deleted
        VolumeWriter.writeAtomically(
                dir, Map.of("level", file("4", 0644), "extra", file("e", 0644)));
        String second = Files.readSymbolicLink(dir.resolve("..data")).toString();
        assertFalse(second.equals(first));
        assertEquals("4", Files.readString(dir.resolve("level")));
        assertEquals("e", Files.readString(dir.resolve("extra")));
        assertEquals(List.of(second, "..data", "extra", "level"), names(dir));
    }

    @Test
    void pathsThatEscapeTheVolumeAreRefused() {
        assertThrows(
                IOException.class,
                () ->
                        VolumeWriter.writeAtomically(
                                tmp.resolve("v"), Map.of("../x", file("", 0644))));
        assertThrows(
                IOException.class,
                () ->
                        VolumeWriter.writeAtomically(
                                tmp.resolve("v"), Map.of("/abs", file("", 0644))));
    }

    @Test
    void planIsMaterialisedWithKubesModesAndHostPathChecks() throws Exception {
        Path empty = tmp.resolve("pods/u/volumes/kubernetes.io~empty-dir/scratch");
        Path created = tmp.resolve("host/created");
        VolumeWriter.materialize(
                new VolumePlan(
                        Map.of(
                                "scratch", new VolumePlan.EmptyDir("scratch", empty),
                                "h", new VolumePlan.HostPath("h", created, "DirectoryOrCreate"),
                                "c",
                                        new VolumePlan.Content(
                                                "c",
                                                tmp.resolve("c"),
                                                Map.of("k", file("v", 0644))))));
        assertEquals("rwxrwxrwx", perms(empty));
        assertTrue(Files.isDirectory(created));
        assertEquals("v", Files.readString(tmp.resolve("c/k")));

        Files.writeString(tmp.resolve("plain"), "x");
        PodConfigException notDir =
                assertThrows(
                        PodConfigException.class,
                        () ->
                                VolumeWriter.checkHostPath(
                                        new VolumePlan.HostPath(
                                                "h", tmp.resolve("plain"), "Directory")));
        assertEquals(
                "MountVolume.SetUp failed for volume \"h\" : hostPath type check failed: "
                        + tmp.resolve("plain")
                        + " is not a directory",
                notDir.eventMessage());
        assertEquals(
                "hostPath type check failed: " + tmp + " is not a file",
                assertThrows(
                                PodConfigException.class,
                                () ->
                                        VolumeWriter.checkHostPath(
                                                new VolumePlan.HostPath("h", tmp, "File")))
                        .getMessage());
        assertEquals(
                "hostPath type check failed: " + tmp.resolve("plain") + " is not a socket file",
                assertThrows(
                                PodConfigException.class,
                                () ->
                                        VolumeWriter.checkHostPath(
                                                new VolumePlan.HostPath(
                                                        "h", tmp.resolve("plain"), "Socket")))
                        .getMessage());
        VolumeWriter.checkHostPath(
                new VolumePlan.HostPath("h", tmp.resolve("new-file"), "FileOrCreate"));
        assertTrue(Files.isRegularFile(tmp.resolve("new-file")));
        VolumeWriter.checkHostPath(
                new VolumePlan.HostPath("h", tmp.resolve("does-not-matter"), ""));
        assertEquals(
                "Weird is an invalid volume type",
                assertThrows(
                                PodConfigException.class,
                                () ->
                                        VolumeWriter.checkHostPath(
                                                new VolumePlan.HostPath("h", tmp, "Weird")))
                        .getMessage());
    }

    @Test
    void subPathDirectoriesAndTerminationLogAreCreated() throws Exception {
        Path vol = tmp.resolve("vol");
        Files.createDirectories(vol);
        VolumeWriter.ensureSubPaths(
                new VolumePlanner.ContainerMounts(
                        List.of(), List.of(new VolumePlanner.SubPathDir(vol, "a/b", 0777))));
        assertEquals("rwxrwxrwx", perms(vol.resolve("a/b")));
        Path log = tmp.resolve("pods/u/containers/app/tl-1");
        VolumeWriter.createTerminationLog(log);
        assertEquals("rw-rw-rw-", perms(log));
    }

    @Test
    void aSubPathCopyIsMadeOnceFromTheResolvedFileAndKeptThroughLaterUpdates() throws Exception {
        Path vol = tmp.resolve("vol");
        VolumeWriter.writeAtomically(
                vol,
                Map.of(
                        "key",
                        new VolumePlan.FileContent("one".getBytes(StandardCharsets.UTF_8), 0644)));
        Path target = tmp.resolve("volume-subpaths/vol/app/0");
        var copy = new VolumePlanner.SubPathCopy(vol, "key", target);
        VolumeWriter.ensureSubPaths(
                new VolumePlanner.ContainerMounts(List.of(), List.of(), List.of(copy)));
        assertEquals("one", Files.readString(target));
        assertFalse(Files.isSymbolicLink(target));

        VolumeWriter.writeAtomically(
                vol,
                Map.of(
                        "key",
                        new VolumePlan.FileContent("two".getBytes(StandardCharsets.UTF_8), 0644)));
        VolumeWriter.ensureSubPaths(
                new VolumePlanner.ContainerMounts(List.of(), List.of(), List.of(copy)));
        assertEquals("two", Files.readString(vol.resolve("key")));
        assertEquals(
                "one",
                Files.readString(target),
                "the kubelet reuses a subPath's bind mount on a restart");
    }
}
