package io.kubepekko.http.server;

import java.nio.ByteBuffer;
import org.apache.pekko.util.ByteString;

/**
 * Encrypted bytes from the network not yet decrypted. It holds at most a partial record and the
 * chunk that arrived after it: the stage asks the network for more only when no whole record is
 * waiting.
 */
final class CipherBytes {
    /** Read mode: position to limit is what is left to decrypt. */
    private ByteBuffer buffer;

    CipherBytes(int capacity) {
        buffer = ByteBuffer.allocate(capacity).flip();
    }

    void append(ByteString bytes) {
        buffer.compact();
        if (buffer.remaining() < bytes.size()) {
            ByteBuffer bigger = ByteBuffer.allocate(buffer.position() + bytes.size());
            buffer.flip();
            bigger.put(buffer);
            buffer = bigger;
        }
        bytes.copyToBuffer(buffer);
        buffer.flip();
    }

    boolean hasRemaining() {
        return buffer.hasRemaining();
    }

    /** The engine's source. */
    ByteBuffer buffer() {
        return buffer;
    }
}
