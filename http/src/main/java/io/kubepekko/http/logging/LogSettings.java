package io.kubepekko.http.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import java.util.Objects;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * The server's {@code --logging-format} and {@code -v}, applied to the logging stack (logback) once
 * the flags are parsed: the console appender's encoder becomes {@link KubeJsonEncoder} writing to
 * standard output for {@code json} (kube's JSON format writes one stream to stdout), and the root
 * logger's level follows the verbosity ({@link Verbosity}). {@code text} keeps the configured
 * pattern on standard error. Loggers configured with their own level (Pekko's, at WARN) keep it.
 *
 * @param format {@code text} or {@code json}
 * @param verbosity {@code -v}
 */
public record LogSettings(String format, long verbosity) {

    public static final String TEXT = "text";
    public static final String JSON = "json";

    /** What no flag gives. */
    public static final LogSettings DEFAULT = new LogSettings(TEXT, 0);

    /** The appender of logback.xml that writes the log. */
    static final String CONSOLE = "STDERR";

    public LogSettings {
        Objects.requireNonNull(format, "format");
        if (!format.equals(TEXT) && !format.equals(JSON)) {
            throw new IllegalArgumentException("format " + format);
        }
    }

    /** Applies these settings to the process's logback context; nothing without logback. */
    public void apply() {
        ILoggerFactory factory = LoggerFactory.getILoggerFactory();
        if (factory instanceof LoggerContext context) {
            apply(context);
        }
    }

    void apply(LoggerContext context) {
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Verbosity.level(verbosity));
        Appender<ILoggingEvent> appender = root.getAppender(CONSOLE);
        if (format.equals(JSON) && appender instanceof ConsoleAppender<ILoggingEvent> console) {
            KubeJsonEncoder encoder = new KubeJsonEncoder();
            encoder.setContext(context);
            encoder.start();
            console.stop();
            console.setEncoder(encoder);
            console.setTarget("System.out");
            console.start();
        }
    }
}
