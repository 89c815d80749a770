package io.kubepekko.api.meta;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The project's small line-oriented definition files (protobuf message definitions, merge
 * metadata): {@code #} starts a comment, blank lines are skipped, and each line keeps its number
 * for messages.
 */
public final class DefinitionLines {
    private DefinitionLines() {}

    /**
     * One meaningful line: its 1-based number and its text without comment or surrounding space.
     */
    public record Line(int number, String text) {}

    public static List<Line> of(String text) {
        List<Line> out = new ArrayList<>();
        int number = 0;
        for (String raw : text.split("\n")) {
            number++;
            int hash = raw.indexOf('#');
            String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
            if (!line.isEmpty()) {
                out.add(new Line(number, line));
            }
        }
        return out;
    }

    /** A resource next to {@code owner}, as text; null when it does not exist. */
    public static String resource(Class<?> owner, String name) {
        try (InputStream in = owner.getResourceAsStream(name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
