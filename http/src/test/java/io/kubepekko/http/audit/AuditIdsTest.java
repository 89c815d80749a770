package io.kubepekko.http.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AuditIdsTest {

    @Test
    void anAuditIdIsARandomVersion4UuidAndTheyDiffer() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            String id = AuditIds.next();
            UUID uuid = UUID.fromString(id);
            assertEquals(id, uuid.toString());
            assertEquals(4, uuid.version());
            assertEquals(2, uuid.variant());
            seen.add(id);
        }
        assertEquals(10_000, seen.size());
    }
}
