package io.kubepekko.api.logging;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import java.util.Iterator;
import java.util.Objects;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;

/**
 * A command's {@code --logging-format} and {@code -v} (the API server's and the node agent's),
 * applied to the logging stack (logback) once the flags are parsed: the console appender's encoder
 * becomes {@link KubeJsonEncoder} writing to standard output for {@code json} (kube's JSON format
 * writes one stream to stdout), and the root logger's level follows the verbosity ({@link
 * Verbosity}). {@code text} keeps the configured pattern. Loggers configured with their own level
 * (Pekko's, at WARN) keep it. The console appender is the one logback.xml names {@link #CONSOLE},
 * else the root logger's first console appender (logback's own default configuration has one, named
 * otherwise).
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
    public static final String CONSOLE = "STDERR";

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

    /** Applies these settings to {@code context}. */
    public void apply(LoggerContext context) {
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Verbosity.level(verbosity));
        if (format.equals(JSON)
                && console(root) instanceof ConsoleAppender<ILoggingEvent> console) {
            KubeJsonEncoder encoder = new KubeJsonEncoder();
            encoder.setContext(context);
            encoder.start();
            console.stop();
            console.setEncoder(encoder);
            console.setTarget("System.out");
            console.start();
        }
    }

    private static Appender<ILoggingEvent> console(Logger root) {
        Appender<ILoggingEvent> named = root.getAppender(CONSOLE);
        if (named != null) {
            return named;
        }
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            Appender<ILoggingEvent> appender = it.next();
            if (appender instanceof ConsoleAppender) {
                return appender;
            }
        }
        return null;
    }
}
