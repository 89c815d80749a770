package io.kubepekko.agent.manifest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BoundedBytesTest {

    @TempDir Path dir;

    @Test
    void theShippedLimitIsTenMebibytes() {
        assertEquals(10 * 1024 * 1024, BoundedBytes.MAX_MANIFEST_BYTES);
        assertEquals(
                "larger than the limit of 10485760 bytes (10 MiB): not read",
                BoundedBytes.tooLarge(BoundedBytes.MAX_MANIFEST_BYTES));
    }

    @Test
    void aFileExactlyAtTheLimitIsReadAndOneByteMoreIsNot() throws Exception {
        Path at = Files.write(dir.resolve("at"), new byte[100]);
        Path over = Files.write(dir.resolve("over"), new byte[101]);
        assertEquals(100, BoundedBytes.readFile(at, 100).orElseThrow().length);
        assertEquals(Optional.empty(), BoundedBytes.readFile(over, 100));
    }

    @Test
    void aBodyExactlyAtTheLimitIsKept() throws Exception {
        Feed feed = new Feed();
        var body = BoundedBytes.bodyHandler(6).apply(null);
        body.onSubscribe(feed);
        body.onNext(List.of(ByteBuffer.wrap("abc".getBytes()), ByteBuffer.wrap("de".getBytes())));
        body.onNext(List.of(ByteBuffer.wrap("f".getBytes())));
        body.onComplete();
        assertArrayEquals(
                "abcdef".getBytes(),
                body.getBody().toCompletableFuture().getNow(Optional.empty()).orElseThrow());
        assertFalse(feed.cancelled.get());
    }

    @Test
    void aBodyOverTheLimitIsDroppedAndItsDownloadCancelledWithoutReadingTheRest() throws Exception {
        Feed feed = new Feed();
        var body = BoundedBytes.bodyHandler(6).apply(null);
        body.onSubscribe(feed);
        body.onNext(List.of(ByteBuffer.wrap("abcd".getBytes())));
        long requested = feed.requested.get();
        body.onNext(List.of(ByteBuffer.wrap("efg".getBytes())));
        assertEquals(
                Optional.empty(),
                body.getBody().toCompletableFuture().getNow(Optional.of(new byte[0])),
                "done as soon as the limit is passed");
        assertTrue(feed.cancelled.get());
        assertEquals(requested, feed.requested.get(), "nothing more asked for");
    }

    private static final class Feed implements Flow.Subscription {
        final AtomicLong requested = new AtomicLong();
        final AtomicBoolean cancelled = new AtomicBoolean();

        @Override
        public void request(long n) {
            requested.addAndGet(n);
        }

        @Override
        public void cancel() {
            cancelled.set(true);
        }
    }
}
