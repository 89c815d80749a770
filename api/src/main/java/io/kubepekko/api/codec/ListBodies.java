package io.kubepekko.api.codec;

import io.kubepekko.api.meta.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.UnaryOperator;

/** Lists of stored objects ({@code kind: XList}) as JSON or YAML bodies, item by item. */
public final class ListBodies {
    private ListBodies() {}

    private static final byte[] TAIL = "]}".getBytes(StandardCharsets.UTF_8);

    /**
     * The list as compact JSON in one array, joined from the items' stored bytes without parsing
     * them.
     */
    public static byte[] json(ListHead head, List<byte[]> items) {
        ListBody body = new JsonListBody(head.json(), items, null);
        ByteArrayOutputStream out =
                new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, body.length()));
        ListBody.Writer writer = body.open(out);
        while (writer.writeNext()) {
            // one item per call
        }
        return out.toByteArray();
    }

    /**
     * The list in {@code format}, item by item.
     *
     * @param perItem applied to each item's stored JSON before it is encoded (a conversion to the
     *     served version), or null
     */
    public static ListBody of(
            TextFormat format, ListHead head, List<byte[]> items, UnaryOperator<byte[]> perItem) {
        if (format == TextFormat.JSON) {
            return new JsonListBody(head.json(), items, perItem);
        }
        return new TreeListBody(
                format,
                head.fields(),
                "items",
                items,
                item -> Json.parseTrusted(perItem == null ? item : perItem.apply(item)));
    }

    /**
     * Compact JSON: the items' bytes as they are, comma-separated between the head and the tail.
     */
    private static final class JsonListBody implements ListBody {
        private final byte[] head;
        private final List<byte[]> items;
        private final UnaryOperator<byte[]> perItem;

        JsonListBody(byte[] head, List<byte[]> items, UnaryOperator<byte[]> perItem) {
            this.head = head;
            this.items = items;
            this.perItem = perItem;
        }

        @Override
        public long length() {
            if (perItem != null) {
                return -1;
            }
            long size = head.length + TAIL.length;
            for (byte[] item : items) {
                size += item.length;
            }
            return size + Math.max(0, items.size() - 1);
        }

        @Override
        public Writer open(OutputStream out) {
            write(out, head);
            return new Writer() {
                private int next;

                @Override
                public boolean writeNext() {
                    if (next < items.size()) {
                        byte[] item = items.get(next);
                        if (next++ > 0) {
                            write(out, ',');
                        }
                        write(out, perItem == null ? item : perItem.apply(item));
                        return true;
                    }
                    if (next++ == items.size()) {
                        write(out, TAIL);
                    }
                    return false;
                }
            };
        }

        private static void write(OutputStream out, byte[] bytes) {
            try {
                out.write(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static void write(OutputStream out, int b) {
            try {
                out.write(b);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
