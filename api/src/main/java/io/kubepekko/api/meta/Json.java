package io.kubepekko.api.meta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** The project's shared Jackson mappers for object bodies (JSON and YAML). */
public final class Json {
    private Json() {}

    /** Mapper for object trees: big numbers kept exact, no type coercion. */
    public static final ObjectMapper MAPPER =
            JsonMapper.builder()
                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                    .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
                    .disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                    .build();

    /**
     * YAML as kube-apiserver writes it: no document marker, strings plain unless a reader could
     * take them for another type.
     */
    public static final ObjectMapper YAML =
            YAMLMapper.builder(
                            YAMLFactory.builder()
                                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                                    .disable(YAMLGenerator.Feature.SPLIT_LINES)
                                    .stringQuotingChecker(YamlQuoting.INSTANCE)
                                    .build())
                    .build();

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The text Go's {@code json.Marshal} writes for {@code value}: compact, with {@code <}, {@code
     * >}, {@code &}, U+2028 and U+2029 escaped as {@code \\u003c} and so on (kube writes such JSON
     * into annotations).
     */
    public static String goString(JsonNode value) {
        String s = string(value);
        if (s.indexOf('<') < 0
                && s.indexOf('>') < 0
                && s.indexOf('&') < 0
                && s.indexOf('\u2028') < 0
                && s.indexOf('\u2029') < 0) {
            return s;
        }
        return s.replace("<", "\\u003c")
                .replace(">", "\\u003e")
                .replace("&", "\\u0026")
                .replace("\u2028", "\\u2028")
                .replace("\u2029", "\\u2029");
    }

    /** The length of {@link #bytes}, counted without keeping them. */
    public static long byteSize(JsonNode node) {
        long[] count = new long[1];
        OutputStream counter =
                new OutputStream() {
                    @Override
                    public void write(int b) {
                        count[0]++;
                    }

                    @Override
                    public void write(byte[] b, int off, int len) {
                        count[0] += len;
                    }
                };
        try {
            MAPPER.writeValue(counter, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return count[0];
    }

    public static String string(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Parses bytes that the server itself wrote (stored objects): failure is a bug, not bad input.
     */
    public static ObjectNode parseTrusted(byte[] json) {
        try {
            return (ObjectNode) MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
