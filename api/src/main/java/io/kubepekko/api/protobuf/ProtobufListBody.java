package io.kubepekko.api.protobuf;

import com.google.protobuf.CodedOutputStream;
import io.kubepekko.api.codec.ListBody;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A list as a protobuf body, item by item: the envelope ({@code k8s\0}, an {@code Unknown} whose
 * {@code raw} is the list message) around its {@code metadata} field and one {@code items} field
 * per item (1 and 2 in every list message but meta.k8s.io/v1beta1's PartialObjectMetadataList). The
 * {@code raw} field's length prefix comes before the items, so every item is encoded once when the
 * body is made, to add up their sizes; this also refuses an item that cannot be encoded before
 * anything is written. The encoded items are kept while they add up to at most a given number of
 * bytes (a small list is encoded once); beyond that each is encoded again when its turn comes, so
 * the body never holds more than that and one item.
 */
final class ProtobufListBody implements ListBody {
    private final ProtoCodec codec;
    private final String message;
    private final List<byte[]> items;
    private final UnaryOperator<byte[]> perItem;
    private final byte[] typeMeta;
    private final byte[] listMeta;

    /** The encoded items, or null when they were more than could be kept. */
    private final List<byte[]> encoded;

    private final long rawLength;
    private final int metadataField;
    private final int itemsField;

    /** The field numbers of a list message's {@code metadata} and {@code items}. */
    record Fields(int metadata, int items) {
        static final Fields USUAL = new Fields(1, 2);
    }

    ProtobufListBody(
            ProtoCodec codec,
            String message,
            String apiVersion,
            String listKind,
            Fields fields,
            byte[] listMeta,
            List<byte[]> items,
            UnaryOperator<byte[]> perItem,
            long keepUpTo) {
        this.codec = codec;
        this.metadataField = fields.metadata();
        this.itemsField = fields.items();
        this.message = message;
        this.items = items;
        this.perItem = perItem;
        this.typeMeta = Envelope.typeMeta(apiVersion, listKind);
        this.listMeta = listMeta;
        long raw = Envelope.fieldLength(metadataField, listMeta.length);
        long kept = 0;
        List<byte[]> encoded = new ArrayList<>();
        for (byte[] item : items) {
            byte[] bytes = encode(item);
            raw += Envelope.fieldLength(itemsField, bytes.length);
            kept += bytes.length;
            if (encoded != null && kept <= keepUpTo) {
                encoded.add(bytes);
            } else {
                encoded = null;
            }
        }
        this.rawLength = raw;
        this.encoded = encoded;
    }

    private byte[] encode(byte[] item) {
        return codec.encode(
                Json.parseTrusted(perItem == null ? item : perItem.apply(item)), message);
    }

    @Override
    public long length() {
        return Envelope.length(typeMeta, rawLength);
    }

    @Override
    public Writer open(OutputStream stream) {
        CodedOutputStream out = CodedOutputStream.newInstance(stream);
        try {
            Envelope.writeHead(out, typeMeta, rawLength);
            out.writeByteArray(metadataField, listMeta);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Writer() {
            private int next;

            @Override
            public boolean writeNext() {
                try {
                    if (next < items.size()) {
                        int i = next++;
                        out.writeByteArray(
                                itemsField,
                                encoded != null ? encoded.get(i) : encode(items.get(i)));
                        out.flush();
                        return true;
                    }
                    if (next++ == items.size()) {
                        Envelope.writeTail(out);
                        out.flush();
                    }
                    return false;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }
}
