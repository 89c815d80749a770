package io.kubepekko.api.meta;

import java.util.Map;

/**
 * How a quantity's text is read, as Kubernetes' {@code parseQuantityString} scans it: sign, number
 * and suffix, and what the suffix means. {@link Quantity} holds the value and prints it.
 */
final class QuantitySyntax {
    private QuantitySyntax() {}

    enum Format {
        DECIMAL_EXPONENT,
        DECIMAL_SI,
        BINARY_SI
    }

    record Suffix(int base, int exponent, Format format) {}

    /** The parts of a quantity's text, as Kubernetes' scanner splits it. */
    record Scanned(boolean positive, String value, String num, String denom, String suffix) {}

    /** An exponent suffix ({@code e12}) longer than this is refused as a suffix. */
    private static final int MAX_EXPONENT_CHARS = 11;

    private static final String SUFFIX_CHARS = "eEinumkKMGTP";

    private static final Map<String, Integer> DECIMAL_SUFFIXES =
            Map.of(
                    "n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E",
                    18);
    private static final Map<String, Integer> BINARY_SUFFIXES =
            Map.of("Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);

    /** The parse error of scanned text, or null when it is a quantity. */
    static String error(Scanned s) {
        if (s == null) {
            return Quantity.FORMAT_WRONG;
        }
        if (interpret(s.suffix()) == null) {
            return Quantity.SUFFIX;
        }
        // A lone decimal point has no number to parse; Kubernetes fails it on the numeric part.
        return s.value().contains(".") && !hasDigit(s.value()) ? Quantity.NUMERIC : null;
    }

    static boolean hasDigit(String text) {
        return text.chars().anyMatch(QuantitySyntax::isDigit);
    }

    static Suffix interpret(String suffix) {
        Integer decimal = DECIMAL_SUFFIXES.get(suffix);
        if (decimal != null) {
            return new Suffix(10, decimal, Format.DECIMAL_SI);
        }
        Integer binary = BINARY_SUFFIXES.get(suffix);
        if (binary != null) {
            return new Suffix(2, binary, Format.BINARY_SI);
        }
        if (suffix.length() > 1
                && suffix.length() <= MAX_EXPONENT_CHARS + 1
                && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            String exponent = suffix.substring(1);
            int digitsFrom = exponent.charAt(0) == '+' || exponent.charAt(0) == '-' ? 1 : 0;
            if (digitsFrom == exponent.length()
                    || !exponent.substring(digitsFrom).chars().allMatch(QuantitySyntax::isDigit)) {
                return null;
            }
            // Go keeps the low 32 bits of the exponent; the cast does the same.
            return new Suffix(10, (int) Long.parseLong(exponent), Format.DECIMAL_EXPONENT);
        }
        return null;
    }

    /**
     * Splits the text into sign, number and suffix as Kubernetes' scanner does; null if malformed.
     */
    static Scanned scan(String str) {
        boolean positive = true;
        int pos = 0;
        int end = str.length();
        if (end == 0) {
            return null;
        }
        if (str.charAt(0) == '-') {
            positive = false;
            pos++;
        } else if (str.charAt(0) == '+') {
            pos++;
        }
        while (true) {
            if (pos >= end) {
                return new Scanned(positive, "0", "0", "", "");
            }
            if (str.charAt(pos) != '0') {
                break;
            }
            pos++;
        }
        int numStart = pos;
        while (pos < end && isDigit(str.charAt(pos))) {
            pos++;
        }
        if (pos >= end) {
            return new Scanned(positive, str, str.substring(numStart), "", "");
        }
        String num = str.substring(numStart, pos);
        if (num.isEmpty()) {
            num = "0";
        }
        String denom = "";
        if (str.charAt(pos) == '.') {
            pos++;
            int denomStart = pos;
            while (pos < end && isDigit(str.charAt(pos))) {
                pos++;
            }
            if (pos >= end) {
                return new Scanned(positive, str, num, str.substring(denomStart), "");
            }
            denom = str.substring(denomStart, pos);
        }
        String value = str.substring(0, pos);
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
        return pos >= end
                ? new Scanned(positive, value, num, denom, str.substring(suffixStart))
                : null;
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
