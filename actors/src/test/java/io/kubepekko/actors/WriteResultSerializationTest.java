package io.kubepekko.actors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.StatusCause;
import io.kubepekko.api.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A write's answer is a collection entity's reply and crosses the cluster: every {@link
 * WriteResult} is bound to Jackson CBOR by the actors' {@code reference.conf} and comes back as it
 * went.
 */
class WriteResultSerializationTest {

    private static ActorTestKit kit;

    @BeforeAll
    static void start() {
        kit = ActorTestKit.create();
    }

    @AfterAll
    static void stop() {
        kit.shutdownTestKit();
    }

    private static Object roundTrip(Object message) {
        Serialization serialization = SerializationExtension.get(Adapter.toClassic(kit.system()));
        var serializer = serialization.findSerializerFor(message);
        assertEquals(
                "JacksonCborSerializer",
                serializer.getClass().getSimpleName(),
                message.getClass().getName());
        byte[] bytes = serializer.toBinary(message);
        return serialization
                .deserialize(
                        bytes,
                        serializer.identifier(),
                        Serializers.manifestFor(serializer, message))
                .get();
    }

    @Test
    void everyAnswerCrossesTheClusterUnchanged() {
        byte[] body = "{\"kind\":\"ConfigMap\"}".getBytes(StandardCharsets.UTF_8);
        List<WriteResult.Success> answers =
                List.of(
                        new WriteResult.Created(body, List.of(), 7),
                        new WriteResult.Updated(body, List.of("unknown field \"spec.x\""), 8),
                        new WriteResult.Unchanged(body, List.of(), 0),
                        new WriteResult.Deleted(body, List.of(), 9),
                        new WriteResult.Accepted(body, List.of("w1", "w2"), 10));
        for (WriteResult.Success sent : answers) {
            WriteResult.Success got = assertInstanceOf(sent.getClass(), roundTrip(sent));
            assertArrayEquals(sent.body(), got.body());
            assertEquals(sent.warnings(), got.warnings());
            assertEquals(sent.resourceVersion(), got.resourceVersion());
        }
    }

    @Test
    void aRefusalKeepsItsWholeStatus() {
        ApiStatus conflict =
                ApiStatus.conflict(
                        new GroupResource("", "configmaps"),
                        "cm",
                        "Apply failed with 1 conflict: conflict with \"alice\": .data.k");
        ApiStatus.Details d = conflict.details();
        ApiStatus status =
                new ApiStatus(
                        conflict.code(),
                        conflict.reason(),
                        conflict.message(),
                        new ApiStatus.Details(
                                d.name(),
                                d.group(),
                                d.kind(),
                                d.uid(),
                                List.of(
                                        new StatusCause(
                                                "FieldManagerConflict",
                                                "conflict with \"alice\"",
                                                ".data.k")),
                                null));
        WriteResult.Refused got =
                assertInstanceOf(
                        WriteResult.Refused.class, roundTrip(new WriteResult.Refused(status)));
        assertEquals(status, got.status());
        assertEquals(status.toJson(), got.status().toJson());
    }
}
