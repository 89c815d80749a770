package io.kubepekko.persistence.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CassandraNodeFilesTest {

    @TempDir Path dir;

    @Test
    void thePortsOfTheLastWrittenConfigurationAreReadBack() throws Exception {
        assertTrue(
                CassandraNodeFiles.ports(dir).isEmpty(),
                "a directory Cassandra never ran in has no ports");
        CassandraNodeFiles.write(dir, "127.0.0.1", 41001, 41002);
        assertEquals(new NodePorts(41001, 41002), CassandraNodeFiles.ports(dir).orElseThrow());
    }
}
