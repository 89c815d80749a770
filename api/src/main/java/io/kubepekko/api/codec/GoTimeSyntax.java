package io.kubepekko.api.codec;

import io.kubepekko.api.status.FieldError;
import java.util.Optional;

/**
 * Whether a string is an RFC 3339 timestamp as Go's {@code time.Parse(time.RFC3339, s)} accepts it,
 * with Go's error text when it is not ({@code parsing time "x" as "2006-01-02T15:04:05Z07:00":
 * cannot parse "x" as "2006"}), which Kubernetes returns for a bad {@code metav1.Time}.
 */
final class GoTimeSyntax {
    private static final String LAYOUT = "2006-01-02T15:04:05Z07:00";

    private final String value;
    private String rest;

    private GoTimeSyntax(String value) {
        this.value = value;
        this.rest = value;
    }

    private static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message, null, false, false);
        }
    }

    /** The parse error's message, or empty if the text is a valid timestamp. */
    static Optional<String> error(String value) {
        try {
            new GoTimeSyntax(value).parse();
            return Optional.empty();
        } catch (Bad b) {
            return Optional.of(b.getMessage());
        }
    }

    private void parse() throws Bad {
        int year = fixedNumber(4, "2006");
        literal("-");
        int month = fixedNumber(2, "01");
        if (month < 1 || month > 12) {
            outOfRange("month");
        }
        literal("-");
        int day = fixedNumber(2, "02");
        literal("T");
        int hour = flexibleNumber("15");
        if (hour > 23) {
            outOfRange("hour");
        }
        literal(":");
        if (fixedNumber(2, "04") > 59) {
            outOfRange("minute");
        }
        literal(":");
        if (fixedNumber(2, "05") > 59) {
            outOfRange("second");
        }
        if (rest.length() >= 2
                && (rest.charAt(0) == '.' || rest.charAt(0) == ',')
                && isDigit(rest, 1)) {
            int n = 2;
            while (n < rest.length() && isDigit(rest, n)) {
                n++;
            }
            rest = rest.substring(n);
        }
        zone();
        if (!rest.isEmpty()) {
            throw new Bad(
                    "parsing time "
                            + FieldError.quote(value)
                            + ": extra text: "
                            + FieldError.quote(rest));
        }
        if (day < 1 || day > daysIn(month, year)) {
            outOfRange("day");
        }
    }

    private int fixedNumber(int width, String element) throws Bad {
        if (rest.length() < width) {
            cannotParse(element);
        }
        for (int k = 0; k < width; k++) {
            if (!isDigit(rest, k)) {
                cannotParse(element);
            }
        }
        int n = Integer.parseInt(rest.substring(0, width));
        rest = rest.substring(width);
        return n;
    }

    /** Go's non-fixed {@code getnum}: one or two digits. */
    private int flexibleNumber(String element) throws Bad {
        if (!isDigit(rest, 0)) {
            cannotParse(element);
        }
        int width = isDigit(rest, 1) ? 2 : 1;
        int n = Integer.parseInt(rest.substring(0, width));
        rest = rest.substring(width);
        return n;
    }

    private void literal(String prefix) throws Bad {
        if (!rest.startsWith(prefix)) {
            cannotParse(prefix);
        }
        rest = rest.substring(prefix.length());
    }

    private void zone() throws Bad {
        if (rest.startsWith("Z")) {
            rest = rest.substring(1);
            return;
        }
        if (rest.length() < 6
                || rest.charAt(3) != ':'
                || (rest.charAt(0) != '+' && rest.charAt(0) != '-')
                || !isDigit(rest, 1)
                || !isDigit(rest, 2)
                || !isDigit(rest, 4)
                || !isDigit(rest, 5)) {
            cannotParse("Z07:00");
        }
        if (Integer.parseInt(rest.substring(1, 3)) > 24) {
            outOfRange("time zone offset hour");
        }
        if (Integer.parseInt(rest.substring(4, 6)) > 60) {
            outOfRange("time zone offset minute");
        }
        rest = rest.substring(6);
    }

    private void cannotParse(String element) throws Bad {
        throw new Bad(
                "parsing time "
                        + FieldError.quote(value)
                        + " as "
                        + FieldError.quote(LAYOUT)
                        + ": cannot parse "
                        + FieldError.quote(rest)
                        + " as "
                        + FieldError.quote(element));
    }

    private void outOfRange(String what) throws Bad {
        throw new Bad("parsing time " + FieldError.quote(value) + ": " + what + " out of range");
    }

    private static boolean isDigit(String s, int k) {
        return k < s.length() && s.charAt(k) >= '0' && s.charAt(k) <= '9';
    }

    private static int daysIn(int month, int year) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }
}
