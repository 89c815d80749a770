package io.kubepekko.api.codec;

import java.util.Optional;
import java.util.Set;

/**
 * Whether a string parses as a {@code resource.Quantity}, with the error Kubernetes' parser gives
 * when it does not. Only the syntax is checked here; canonical formatting is not this class's job.
 */
final class GoQuantitySyntax {
    private GoQuantitySyntax() {}

    static final String FORMAT_WRONG =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    static final String NUMERIC = "unable to parse numeric part of quantity";
    static final String SUFFIX = "unable to parse quantity's suffix";

    private static final Set<String> SUFFIXES =
            Set.of("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "n", "u", "m", "k", "M", "G", "T", "P", "E");
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";

    /** The parse error's message, or empty if the text is a valid quantity. */
    static Optional<String> error(String str) {
        if (str.isEmpty()) {
            return Optional.of(FORMAT_WRONG);
        }
        int end = str.length();
        int pos = str.charAt(0) == '-' || str.charAt(0) == '+' ? 1 : 0;
        int digits = 0;
        while (pos < end && isDigit(str.charAt(pos))) {
            pos++;
            digits++;
        }
        boolean dot = pos < end && str.charAt(pos) == '.';
        if (dot) {
            pos++;
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
                digits++;
            }
        }
        int suffixStart = pos;
        while (pos < end && SUFFIX_CHARS.indexOf(str.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (str.charAt(pos) == '-' || str.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(str.charAt(pos))) {
            pos++;
        }
        if (pos < end) {
            return Optional.of(FORMAT_WRONG);
        }
        if (!validSuffix(str.substring(suffixStart))) {
            return Optional.of(SUFFIX);
        }
        // A lone decimal point has no number to parse; Kubernetes fails it on the numeric part.
        return dot && digits == 0 ? Optional.of(NUMERIC) : Optional.empty();
    }

    private static boolean validSuffix(String s) {
        if (SUFFIXES.contains(s)) {
            return true;
        }
        if (s.length() > 1 && (s.charAt(0) == 'e' || s.charAt(0) == 'E')) {
            String exp = s.substring(1);
            return exp.matches("[-+]?[0-9]+") && exp.length() < 12;
        }
        return false;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
