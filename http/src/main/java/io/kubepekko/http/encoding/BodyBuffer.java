package io.kubepekko.http.encoding;

import java.io.OutputStream;
import org.apache.pekko.util.ByteString;
import org.apache.pekko.util.ByteStringBuilder;

/**
 * Where a body being encoded is written until it is sent: arrays of at most {@link #MAX_CHUNK}
 * bytes joined into a rope, never one growing array. A large contiguous array is what fails first
 * in a heap that is mostly full (G1 places arrays over half a region in regions of their own, and
 * needs that many free regions side by side), and copying one as it grows costs twice its size.
 */
final class BodyBuffer extends OutputStream {
    private static final int FIRST_CHUNK = 4 * 1024;
    static final int MAX_CHUNK = 64 * 1024;

    private final ByteStringBuilder full = ByteString.createBuilder();
    private byte[] chunk = new byte[FIRST_CHUNK];
    private int used;

    @Override
    public void write(int b) {
        if (used == chunk.length) {
            nextChunk();
        }
        chunk[used++] = (byte) b;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        while (length > 0) {
            if (used == chunk.length) {
                nextChunk();
            }
            int n = Math.min(length, chunk.length - used);
            System.arraycopy(bytes, offset, chunk, used, n);
            used += n;
            offset += n;
            length -= n;
        }
    }

    /** How many bytes are waiting to be taken. */
    long length() {
        return full.length() + used;
    }

    /** Everything written since the last take. */
    ByteString take() {
        if (used > 0) {
            full.append(ByteString.fromArrayUnsafe(chunk, 0, used));
            chunk = new byte[Math.min(MAX_CHUNK, chunk.length)];
            used = 0;
        }
        ByteString taken = full.result();
        full.clear();
        return taken;
    }

    private void nextChunk() {
        full.append(ByteString.fromArrayUnsafe(chunk));
        chunk = new byte[Math.min(MAX_CHUNK, chunk.length * 2)];
        used = 0;
    }
}
