package io.kubepekko.api.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.encoder.EncoderBase;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * One JSON object per log event, with the keys of kube's {@code --logging-format=json}
 * (component-base's zap encoder): {@code ts} (milliseconds since the epoch, a float as zap writes
 * it), {@code msg}, then {@code v} (the event's verbosity, {@link Verbosity#of}) for an info event,
 * or {@code err} (the exception's text, with its stack trace under {@code errVerbose}) for an
 * error; then the event's key/value pairs and MDC entries, and {@code logger} (the Java logger's
 * name, which stands for kube's {@code caller}: the caller's file and line would cost a stack walk
 * per event). Written with Jackson's streaming generator, so every string is escaped as JSON
 * requires.
 */
public final class KubeJsonEncoder extends EncoderBase<ILoggingEvent> {

    private static final JsonFactory JSON = new JsonFactory();
    private static final byte[] NEWLINE = {'\n'};

    @Override
    public byte[] headerBytes() {
        return null;
    }

    @Override
    public byte[] footerBytes() {
        return null;
    }

    @Override
    public byte[] encode(ILoggingEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeFieldName("ts");
            json.writeNumber(epochMillis(event.getInstant()));
            json.writeStringField("msg", event.getFormattedMessage());
            IThrowableProxy thrown = event.getThrowableProxy();
            if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
                if (thrown != null) {
                    json.writeStringField("err", text(thrown));
                    json.writeStringField("errVerbose", ThrowableProxyUtil.asString(thrown));
                }
            } else {
                json.writeNumberField("v", Verbosity.of(event.getLevel()));
                if (thrown != null) {
                    json.writeStringField("err", text(thrown));
                }
            }
            if (event.getKeyValuePairs() != null) {
                for (KeyValuePair pair : event.getKeyValuePairs()) {
                    json.writeStringField(pair.key, String.valueOf(pair.value));
                }
            }
            for (Map.Entry<String, String> mdc : event.getMDCPropertyMap().entrySet()) {
                json.writeStringField(mdc.getKey(), mdc.getValue());
            }
            json.writeStringField("logger", event.getLoggerName());
            json.writeEndObject();
        } catch (IOException e) {
            // A byte array does not fail.
            throw new UncheckedIOException(e);
        }
        out.writeBytes(NEWLINE);
        return out.toByteArray();
    }

    /**
     * zap's float milliseconds, written plainly ({@code 1764477600123.456789}), never as 1.7E12.
     */
    static String epochMillis(Instant at) {
        return BigDecimal.valueOf(at.getEpochSecond())
                .scaleByPowerOfTen(3)
                .add(BigDecimal.valueOf(at.getNano(), 6))
                .stripTrailingZeros()
                .toPlainString();
    }

    private static String text(IThrowableProxy thrown) {
        String message = thrown.getMessage();
        return message == null ? thrown.getClassName() : thrown.getClassName() + ": " + message;
    }
}
