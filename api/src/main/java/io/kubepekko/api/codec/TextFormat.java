package io.kubepekko.api.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializerProvider;
import io.kubepekko.api.meta.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** The text encodings of response bodies: compact JSON, {@code ?pretty} JSON, and YAML. */
public enum TextFormat {
    JSON(Json.MAPPER, Json.MAPPER.writer()),
    /**
     * Go's {@code json.MarshalIndent(v, "", " ")} layout, which {@code ?pretty} produces in
     * Kubernetes.
     */
    PRETTY_JSON(
            Json.MAPPER,
            Json.MAPPER.writer(
                    new DefaultPrettyPrinter(
                                    Separators.createDefaultInstance()
                                            .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                                            .withObjectEmptySeparator("")
                                            .withArrayEmptySeparator(""))
                            .withArrayIndenter(new DefaultIndenter("  ", "\n"))
                            .withObjectIndenter(new DefaultIndenter("  ", "\n")))),
    YAML(Json.YAML, Json.YAML.writer());

    private final ObjectMapper mapper;
    private final ObjectWriter writer;

    TextFormat(ObjectMapper mapper, ObjectWriter writer) {
        this.mapper = mapper;
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
     * A generator for one document written piece by piece; a tree written to it with {@link
     * JsonNode#serialize} and {@link #serializers} comes out as {@link #bytes} writes it inside a
     * whole document.
     */
    /**
     * What serializes trees as {@link #bytes} does; one per document (asking the mapper per tree
     * costs more).
     */
    SerializerProvider serializers() {
        return mapper.getSerializerProviderInstance();
    }

    JsonGenerator generator(OutputStream out) {
        try {
            return writer.createGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
