package io.kubepekko.agent.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PostedManifestsTest {

    @TempDir Path root;

    @Test
    void manifestsAreStoredUnderTheRootDirReplacedAndRemovedByName() throws Exception {
        PostedManifests store = PostedManifests.under(root);
        assertEquals(root.resolve("static-pods"), store.directory());
        assertEquals(List.of(), store.names(), "nothing stored yet, no directory");

        assertTrue(store.put("web", "one".getBytes()), "new");
        assertFalse(store.put("web", "two".getBytes()), "replaced");
        assertTrue(store.put("db", "three".getBytes()));

        assertEquals(List.of("db", "web"), store.names());
        assertArrayEquals("two".getBytes(), store.read("web", 100).orElseThrow());
        assertArrayEquals("two".getBytes(), Files.readAllBytes(root.resolve("static-pods/web")));
        assertTrue(store.delete("web"));
        assertFalse(store.delete("web"));
        assertEquals(List.of("db"), store.names());
        assertEquals(Optional.empty(), store.read("web", 100));
        assertEquals(List.of(), store.leftovers(), "a write leaves no temporary file behind");
    }

    @Test
    void dotFilesAndLeftoversOfAnInterruptedWriteAreNoManifests() throws Exception {
        PostedManifests store = PostedManifests.under(root);
        store.put("web", "x".getBytes());
        Path leftover = Files.writeString(store.directory().resolve(".web.123.tmp"), "half");
        assertEquals(List.of("web"), store.names());
        assertEquals(List.of(leftover), store.leftovers());
    }

    @Test
    void aNameMustBeAnObjectNameSoItCannotLeaveTheDirectory() {
        assertEquals(List.of(), PostedManifests.nameErrors("kube-proxy.v2"));
        for (String bad : List.of("", "..", ".hidden", "a/b", "Web", "x".repeat(254))) {
            assertFalse(PostedManifests.nameErrors(bad).isEmpty(), bad);
        }
    }
}
