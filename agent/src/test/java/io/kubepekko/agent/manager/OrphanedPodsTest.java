package io.kubepekko.agent.manager;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class OrphanedPodsTest {

    @Test
    void aPodLogDirectoryNamesItsUidLast() {
        assertEquals(Optional.of("4f9c-11"), OrphanedPods.uidOfLogDirectory("default_web_4f9c-11"));
        assertEquals(
                Optional.of("0a1b"),
                OrphanedPods.uidOfLogDirectory("kube-system_etcd-node-a_0a1b"));
    }

    @Test
    void aDirectoryNotNamedLikeAPodLogDirectoryIsNoPods() {
        assertEquals(Optional.empty(), OrphanedPods.uidOfLogDirectory("lost+found"));
        assertEquals(Optional.empty(), OrphanedPods.uidOfLogDirectory("default_web_"));
        assertEquals(Optional.empty(), OrphanedPods.uidOfLogDirectory("a_b_c_d"));
    }
}
