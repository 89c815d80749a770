package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.kubepekko.api.meta.Json;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** The text encodings of response bodies: compact JSON, {@code ?pretty} JSON, and YAML. */
public enum TextFormat {
    JSON(Json.MAPPER.writer()),
    /** Go's {@code json.MarshalIndent(v, "", "  ")} layout, which {@code ?pretty} produces in Kubernetes. */
    PRETTY_JSON(Json.MAPPER.writer(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""))
            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
            .withObjectIndenter(new DefaultIndenter("  ", "\n")))),
    YAML(Json.YAML.writer());

    private final ObjectWriter writer;

    TextFormat(ObjectWriter writer) {
        this.writer = writer;
    }

    /** A tree as one document. */
    public byte[] bytes(JsonNode node) {
        try {
            return writer.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A generator for one document written piece by piece; trees written to it with
     * {@link JsonGenerator#writeTree} come out as {@link #bytes} writes them inside a whole document.
     */
    JsonGenerator generator(OutputStream out) {
        try {
            return writer.createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
