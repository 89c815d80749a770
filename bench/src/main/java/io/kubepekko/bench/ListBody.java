package io.kubepekko.bench;

import java.nio.charset.StandardCharsets;

/**
 * A list response read as it streams in, without keeping it: counts its bytes and the items in it
 * (occurrences of a marker that appears once per item), and keeps only the head and the tail, which
 * is where both stores put what paging needs (our continue token leads the body, etcd's last key
 * and {@code "more"} end it). Reading a 200 MiB list this way costs the client no heap, so the
 * timing is the store's and the socket's.
 */
final class ListBody implements HttpConn.BodySink {

    private static final int HEAD_BYTES = 4096;
    private static final int TAIL_BYTES = 64 * 1024;

    private final byte[] marker;

    /** KMP fall-back table, so that a marker split across two reads is still counted. */
    private final int[] fallback;

    private int matched;
    private long items;
    private long bytes;
    private int status;
    private final byte[] head = new byte[HEAD_BYTES];
    private int headLength;
    private final byte[] tail = new byte[TAIL_BYTES];

    /**
     * Whether items are counted: a byte-by-byte scan, which costs the client CPU that a timed list
     * should not share.
     */
    private final boolean count;

    ListBody(String marker) {
        this(marker, true);
    }

    ListBody(String marker, boolean count) {
        this.count = count;
        this.marker = marker.getBytes(StandardCharsets.UTF_8);
        this.fallback = new int[this.marker.length];
        for (int i = 1, k = 0; i < this.marker.length; i++) {
            while (k > 0 && this.marker[i] != this.marker[k]) {
                k = fallback[k - 1];
            }
            if (this.marker[i] == this.marker[k]) {
                k++;
            }
            fallback[i] = k;
        }
    }

    @Override
    public void status(int status) {
        this.status = status;
    }

    @Override
    public void accept(byte[] buffer, int offset, int length) {
        int end = offset + length;
        for (int i = count ? offset : end; i < end; i++) {
            byte b = buffer[i];
            while (matched > 0 && b != marker[matched]) {
                matched = fallback[matched - 1];
            }
            if (b == marker[matched]) {
                matched++;
                if (matched == marker.length) {
                    items++;
                    matched = fallback[matched - 1];
                }
            }
        }
        int toHead = Math.min(length, HEAD_BYTES - headLength);
        System.arraycopy(buffer, offset, head, headLength, toHead);
        headLength += toHead;
        // The tail is a ring indexed by the absolute body offset.
        int keep = Math.min(length, TAIL_BYTES);
        for (int i = end - keep; i < end; ) {
            long at = bytes + (i - offset);
            int slot = (int) (at % TAIL_BYTES);
            int run = Math.min(end - i, TAIL_BYTES - slot);
            System.arraycopy(buffer, i, tail, slot, run);
            i += run;
        }
        bytes += length;
    }

    int status() {
        return status;
    }

    /** The items counted, or -1 when not counting. */
    long items() {
        return count ? items : -1;
    }

    long bytes() {
        return bytes;
    }

    String head() {
        return new String(head, 0, headLength, StandardCharsets.UTF_8);
    }

    /** The last (up to) 64 KiB of the body, in order. */
    String tail() {
        int kept = (int) Math.min(bytes, TAIL_BYTES);
        byte[] ordered = new byte[kept];
        long start = bytes - kept;
        for (int i = 0; i < kept; i++) {
            ordered[i] = tail[(int) ((start + i) % TAIL_BYTES)];
        }
        return new String(ordered, StandardCharsets.ISO_8859_1);
    }

    /**
     * The string value of {@code "field":"..."} at its first occurrence in {@code text}, or null.
     */
    static String stringField(String text, String field) {
        String key = "\"" + field + "\":\"";
        int at = text.indexOf(key);
        if (at < 0) {
            return null;
        }
        int start = at + key.length();
        int end = text.indexOf('"', start);
        return end < 0 ? null : text.substring(start, end);
    }
}
