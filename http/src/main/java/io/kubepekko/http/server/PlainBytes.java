package io.kubepekko.http.server;

import java.nio.ByteBuffer;
import org.apache.pekko.util.ByteString;

/**
 * Plain bytes from the layer above waiting for the TLS engine: what arrives is gathered, and handed
 * to the engine a buffer's worth at a time, so bytes sent while the network is busy go down as one
 * record.
 */
final class PlainBytes {
    /** What the engine reads from (read mode). */
    private final ByteBuffer source;

    /** What {@link #source} does not hold yet. */
    private ByteString gathered = ByteString.emptyByteString();

    PlainBytes(int capacity) {
        source = ByteBuffer.allocate(capacity).flip();
    }

    void add(ByteString bytes) {
        gathered = gathered.concat(bytes);
    }

    boolean isEmpty() {
        return gathered.isEmpty() && !source.hasRemaining();
    }

    /** Bytes gathered beyond what the engine's source holds. */
    int gathered() {
        return gathered.size();
    }

    /** The engine's source, refilled from what is gathered once it has been read to the end. */
    ByteBuffer source() {
        if (!source.hasRemaining() && !gathered.isEmpty()) {
            source.clear();
            int n = Math.min(source.remaining(), gathered.size());
            gathered.take(n).copyToBuffer(source);
            gathered = gathered.drop(n);
            source.flip();
        }
        return source;
    }
}
