package io.kubepekko.api.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.ConsoleAppender;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.event.KeyValuePair;

/** The JSON log lines with kube's keys, and the flags' settings applied to logback. */
class KubeJsonEncoderTest {

    private static final ObjectMapper MAPPER =
            new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private final LoggerContext context = new LoggerContext();

    KubeJsonEncoderTest() {
        context.setMDCAdapter(new LogbackMDCAdapter());
    }

    private LoggingEvent event(Level level, String message, Throwable thrown) {
        Logger logger = context.getLogger("io.kubepekko.http.server.ApiServer");
        LoggingEvent event =
                new LoggingEvent(
                        Logger.class.getName(), logger, level, message, thrown, new Object[0]);
        event.setInstant(Instant.ofEpochSecond(1_764_477_600L, 123_456_789));
        return event;
    }

    private static JsonNode line(ILoggingEvent event) throws Exception {
        KubeJsonEncoder encoder = new KubeJsonEncoder();
        String text = new String(encoder.encode(event), StandardCharsets.UTF_8);
        assertTrue(text.endsWith("}\n"), text);
        assertFalse(text.substring(0, text.length() - 1).contains("\n"), "one line: " + text);
        return MAPPER.readTree(text);
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void anInfoEventHasTsMsgAndVThenItsKeyValues() throws Exception {
        LoggingEvent event = event(Level.INFO, "Serving \"securely\"", null);
        event.addKeyValuePair(new KeyValuePair("address", "127.0.0.1:6443"));
        JsonNode json = line(event);
        assertEquals(List.of("ts", "msg", "v", "address", "logger"), keys(json));
        // zap's float milliseconds since the epoch, written plainly
        assertTrue(json.get("ts").isNumber(), json.toString());
        assertEquals("1764477600123.456789", json.get("ts").decimalValue().toPlainString());
        assertEquals("Serving \"securely\"", json.get("msg").asText());
        assertEquals(0, json.get("v").asInt());
        assertEquals("127.0.0.1:6443", json.get("address").asText());
        assertEquals("io.kubepekko.http.server.ApiServer", json.get("logger").asText());
    }

    @Test
    void verbosityFollowsTheLevel() throws Exception {
        assertEquals(0, line(event(Level.WARN, "w", null)).get("v").asInt());
        assertEquals(4, line(event(Level.DEBUG, "d", null)).get("v").asInt());
        assertEquals(5, line(event(Level.TRACE, "t", null)).get("v").asInt());
    }

    @Test
    void anErrorHasErrAndNoV() throws Exception {
        JsonNode json =
                line(event(Level.ERROR, "start failed", new IllegalStateException("no port")));
        assertEquals(List.of("ts", "msg", "err", "errVerbose", "logger"), keys(json));
        assertEquals("java.lang.IllegalStateException: no port", json.get("err").asText());
        assertTrue(json.get("errVerbose").asText().contains("\tat "), json.toString());
        assertEquals(List.of("ts", "msg", "logger"), keys(line(event(Level.ERROR, "e", null))));
    }

    @Test
    void theVerbositySetsTheRootLevelAndJsonSwitchesTheConsoleToStdout() {
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setName(LogSettings.CONSOLE);
        console.setContext(context);
        PatternLayoutEncoder pattern = new PatternLayoutEncoder();
        pattern.setContext(context);
        pattern.setPattern("%msg%n");
        pattern.start();
        console.setEncoder(pattern);
        console.setTarget("System.err");
        console.start();
        root.addAppender(console);

        new LogSettings("text", 2).apply(context);
        assertEquals(Level.INFO, root.getLevel());
        assertInstanceOf(PatternLayoutEncoder.class, console.getEncoder());

        new LogSettings("json", 4).apply(context);
        assertEquals(Level.DEBUG, root.getLevel());
        assertInstanceOf(KubeJsonEncoder.class, console.getEncoder());
        assertEquals("System.out", console.getTarget());
        assertTrue(console.isStarted());

        new LogSettings("json", 9).apply(context);
        assertEquals(Level.TRACE, root.getLevel());
    }
}
