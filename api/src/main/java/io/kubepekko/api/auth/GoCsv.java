package io.kubepekko.api.auth;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The records of a CSV text as Go's {@code encoding/csv} reader reads them with kube's token-file
 * settings: comma-separated, any number of fields per record, no comment lines, strict quotes
 * ({@code "a""b"} for a quote inside a quoted field, a quoted field may span lines), empty lines
 * skipped, {@code \r\n} read as {@code \n}.
 */
final class GoCsv {
    private GoCsv() {}

    /** The records, or the first parse error in Go's words. */
    record Read(List<List<String>> records, String error) {}

    static final String BARE_QUOTE = "bare \" in non-quoted-field";
    static final String EXTRANEOUS_QUOTE = "extraneous or missing \" in quoted-field";

    static Read read(String text) {
        List<String> lines = lines(text);
        List<List<String>> records = new ArrayList<>();
        int index = 0;
        while (index < lines.size()) {
            String line = lines.get(index);
            int lineNumber = index + 1;
            index++;
            if (line.isEmpty()) {
                continue;
            }
            List<String> fields = new ArrayList<>();
            int recordLine = lineNumber;
            int pos = 0;
            while (true) {
                if (pos >= line.length() || line.charAt(pos) != '"') {
                    int comma = line.indexOf(',', pos);
                    String field = comma < 0 ? line.substring(pos) : line.substring(pos, comma);
                    int quote = field.indexOf('"');
                    if (quote >= 0) {
                        return failed(
                                recordLine, lineNumber, column(line, pos + quote), BARE_QUOTE);
                    }
                    fields.add(field);
                    if (comma < 0) {
                        break;
                    }
                    pos = comma + 1;
                    continue;
                }
                // A quoted field, possibly running over several lines.
                StringBuilder field = new StringBuilder();
                pos++;
                boolean endOfRecord;
                while (true) {
                    int quote = line.indexOf('"', pos);
                    if (quote < 0) {
                        field.append(line, pos, line.length());
                        if (index >= lines.size()) {
                            // Go reports the end of input as the column after the last byte.
                            return failed(
                                    recordLine,
                                    lineNumber,
                                    column(line, line.length()) + 1,
                                    EXTRANEOUS_QUOTE);
                        }
                        field.append('\n');
                        line = lines.get(index);
                        lineNumber = index + 1;
                        index++;
                        pos = 0;
                        continue;
                    }
                    field.append(line, pos, quote);
                    int after = quote + 1;
                    if (after < line.length() && line.charAt(after) == '"') {
                        field.append('"');
                        pos = after + 1;
                    } else if (after < line.length() && line.charAt(after) == ',') {
                        pos = after + 1;
                        endOfRecord = false;
                        break;
                    } else if (after >= line.length()) {
                        endOfRecord = true;
                        break;
                    } else {
                        return failed(
                                recordLine, lineNumber, column(line, quote), EXTRANEOUS_QUOTE);
                    }
                }
                fields.add(field.toString());
                if (endOfRecord) {
                    break;
                }
            }
            records.add(List.copyOf(fields));
        }
        return new Read(List.copyOf(records), null);
    }

    // The text cut at '\n' with "\r\n" read as "\n"; a final line without newline is a line.
    private static List<String> lines(String text) {
        List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < text.length()) {
            int nl = text.indexOf('\n', start);
            int end = nl < 0 ? text.length() : nl;
            String line = text.substring(start, end);
            if (nl >= 0 && line.endsWith("\r")) {
                line = line.substring(0, line.length() - 1);
            }
            lines.add(line);
            start = nl < 0 ? text.length() : nl + 1;
        }
        return lines;
    }

    // Go counts columns in bytes from 1.
    private static int column(String line, int charIndex) {
        return line.substring(0, charIndex).getBytes(StandardCharsets.UTF_8).length + 1;
    }

    private static Read failed(int recordLine, int line, int column, String what) {
        String where =
                recordLine == line
                        ? "parse error on line " + line + ", column " + column
                        : "record on line "
                                + recordLine
                                + "; parse error on line "
                                + line
                                + ", column "
                                + column;
        return new Read(List.of(), where + ": " + what);
    }
}
