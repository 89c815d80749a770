package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Writes travel between cluster nodes as Jackson-serialized messages: a patch keeps every field.
 */
class WriteOpJsonTest {

    @Test
    void anApplyPatchRoundTripsWithItsForceFlag() throws Exception {
        WriteOp.Patch p =
                new WriteOp.Patch(
                        "cm",
                        PatchType.APPLY_PATCH,
                        "a: b".getBytes(StandardCharsets.UTF_8),
                        "status",
                        new WriteOptions(true, "helm", FieldValidation.STRICT),
                        true);
        byte[] bytes = Json.MAPPER.writerFor(WriteOp.class).writeValueAsBytes(p);
        WriteOp.Patch back = (WriteOp.Patch) Json.MAPPER.readValue(bytes, WriteOp.class);
        assertEquals(p.name(), back.name());
        assertEquals(p.type(), back.type());
        assertArrayEquals(p.patch(), back.patch());
        assertEquals(p.subresource(), back.subresource());
        assertEquals(p.options(), back.options());
        assertTrue(back.force());
    }

    @Test
    void aSubresourceCreateRoundTripsWithItsBodyAndForwarder() throws Exception {
        WriteOp.CreateSubresource c =
                new WriteOp.CreateSubresource(
                        "web",
                        "binding",
                        (ObjectNode)
                                Json.MAPPER.readTree(
                                        "{\"metadata\":{\"name\":\"web\"},\"target\":{\"name\":\"n1\"}}"),
                        "bindings",
                        new WriteOptions(true, "scheduler", FieldValidation.STRICT));
        byte[] bytes = Json.MAPPER.writerFor(WriteOp.class).writeValueAsBytes(c);
        assertEquals(c, Json.MAPPER.readValue(bytes, WriteOp.class));
    }

    @Test
    void anUpdateWhoseManagersWereRecordedKeepsTheFlag() throws Exception {
        WriteOp.Update u =
                new WriteOp.Update(
                        "cm",
                        (ObjectNode) Json.MAPPER.readTree("{\"metadata\":{\"name\":\"cm\"}}"),
                        null,
                        new WriteOptions(false, "applier", FieldValidation.STRICT)
                                .withManagersRecorded());
        byte[] bytes = Json.MAPPER.writerFor(WriteOp.class).writeValueAsBytes(u);
        WriteOp back = Json.MAPPER.readValue(bytes, WriteOp.class);
        assertEquals(u, back);
        assertTrue(back.options().managersRecorded());
    }
}
