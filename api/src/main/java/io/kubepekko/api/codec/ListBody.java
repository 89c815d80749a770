package io.kubepekko.api.codec;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;

/**
 * A list response body encoded one item at a time, so that writing it takes memory for one item,
 * not for the list: the items stay where they are (the watch cache's stored bytes) and each is
 * encoded only when its turn comes. Written out whole, the parts are byte for byte the encoding of
 * the list as one document.
 *
 * <p>Nothing a writer does can fail on the items of a list the server has stored: a body whose
 * encoding may refuse an item (protobuf) encodes every item once when it is made, before the first
 * byte is written.
 */
public interface ListBody {

    /** The body's length in bytes when it is known before the body is written, else -1. */
    long length();

    /**
     * Starts writing the body to {@code out} (and writes its head). A body may be opened any number
     * of times; every writer writes the same bytes.
     */
    Writer open(OutputStream out);

    /** Writes the rest of one body, part by part. Used by one thread at a time. */
    interface Writer {
        /**
         * Writes the next item, or the tail after the last item.
         *
         * @return whether anything is left to write
         */
        boolean writeNext();
    }

    /** The whole body as one array: what it is on the wire, for bodies small enough to hold. */
    default byte[] toBytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Writer writer = open(out);
        while (writer.writeNext()) {
            // each call appends one part
        }
        return out.toByteArray();
    }
}
