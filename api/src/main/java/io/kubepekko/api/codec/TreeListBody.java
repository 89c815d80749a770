package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A document whose last field is an array of one element per item, written by one Jackson
 * generator: the head's fields, then each item's element as its turn comes, then the closing
 * brackets. Only one element's tree exists at a time. Because one generator writes the whole
 * document (YAML's emitter and the pretty printer keep their indentation state across the
 * elements), the bytes are those of the whole tree written at once.
 */
public final class TreeListBody implements ListBody {
    private final TextFormat format;
    private final ObjectNode head;
    private final String arrayField;
    private final List<byte[]> items;
    private final Function<byte[], ? extends JsonNode> element;

    /**
     * @param head the document's fields before the array, in order
     * @param arrayField the name of the array, the document's last field
     * @param element an item's element (called once per item per writer)
     */
    public TreeListBody(
            TextFormat format,
            ObjectNode head,
            String arrayField,
            List<byte[]> items,
            Function<byte[], ? extends JsonNode> element) {
        this.format = format;
        this.head = head;
        this.arrayField = arrayField;
        this.items = items;
        this.element = element;
    }

    @Override
    public long length() {
        return -1;
    }

    @Override
    public Writer open(OutputStream out) {
        JsonGenerator gen = format.generator(out);
        SerializerProvider serializers = format.serializers();
        try {
            gen.writeStartObject();
            Iterator<Map.Entry<String, JsonNode>> fields = head.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                gen.writeFieldName(f.getKey());
                f.getValue().serialize(gen, serializers);
            }
            gen.writeFieldName(arrayField);
            gen.writeStartArray();
            gen.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new Writer() {
            private int next;

            @Override
            public boolean writeNext() {
                try {
                    if (next < items.size()) {
                        element.apply(items.get(next++)).serialize(gen, serializers);
                        gen.flush();
                        return true;
                    }
                    if (next == items.size()) {
                        next++;
                        gen.writeEndArray();
                        gen.writeEndObject();
                        gen.close();
                    }
                    return false;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }
}
