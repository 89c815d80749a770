package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;

/**
 * A {@code resource.Quantity} printed as Kubernetes prints it. We store quantities as the client
 * wrote them, while kube-apiserver parses them and prints the parsed value: mostly its canonical
 * form ({@code 1024Mi} prints {@code 1Gi}, {@code 1000m} prints {@code 1}, {@code 0.5} prints
 * {@code 500m}), except that Kubernetes keeps the original text when its fast parser judges it
 * already canonical ({@code 1.500} stays {@code 1.500}); this class follows both rules.
 */
final class ConfigQuantities {
    private ConfigQuantities() {}

    private enum Format { DECIMAL_EXPONENT, DECIMAL_SI, BINARY_SI }

    private record Suffix(int base, int exponent, Format format) {}

    /** The parts of a quantity's text, as Kubernetes' scanner splits it. */
    private record Scanned(boolean positive, String value, String num, String denom, String suffix) {}

    /** Digits an int64 holds without overflow; above this the parser takes its exact path. */
    private static final int MAX_INT64_FACTORS = 18;
    /** Kubernetes keeps quantities to nano precision, rounding anything finer up. */
    private static final int NANO = -9;
    private static final BigDecimal MAX_BINARY = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal BINARY_FLOOR = BigDecimal.valueOf(-1024);
    private static final BigDecimal BINARY_CEILING = BigDecimal.valueOf(1024);
    private static final BigInteger TEN = BigInteger.TEN;
    private static final BigInteger KIBI = BigInteger.valueOf(1024);
    private static final String SUFFIX_CHARS = "eEinumkKMGTP";

    private static final Map<String, Integer> DECIMAL_SUFFIXES = Map.of(
            "n", -9, "u", -6, "m", -3, "", 0, "k", 3, "M", 6, "G", 9, "T", 12, "P", 15, "E", 18);
    private static final Map<String, Integer> BINARY_SUFFIXES = Map.of(
            "Ki", 10, "Mi", 20, "Gi", 30, "Ti", 40, "Pi", 50, "Ei", 60);
    private static final Map<Integer, String> DECIMAL_BY_EXPONENT = Map.of(
            -9, "n", -6, "u", -3, "m", 0, "", 3, "k", 6, "M", 9, "G", 12, "T", 15, "P", 18, "E");
    private static final Map<Integer, String> BINARY_BY_EXPONENT = Map.of(
            0, "", 10, "Ki", 20, "Mi", 30, "Gi", 40, "Ti", 50, "Pi", 60, "Ei");

    /**
     * A quantity field as kube prints it; {@code 0} when it is missing (Go's zero Quantity). Text
     * that is not a quantity cannot reach kube's printer; we show it as it is.
     */
    static String format(JsonNode node) {
        if (node == null) {
            return "0";
        }
        if (node.isTextual()) {
            return format(node.asText());
        }
        if (node.isNumber()) {
            return format(node.numberValue().toString());
        }
        return "0";
    }

    /** A quantity's text as kube prints it once parsed; unparseable text comes back unchanged. */
    static String format(String str) {
        if (str.equals("0")) {
            return str;
        }
        Scanned s = scan(str);
        Suffix suffix = s == null ? null : interpret(s.suffix());
        if (suffix == null) {
            return str;
        }
        Format format = suffix.format();
        int exponent = suffix.exponent();

        // The int64 fast path: where it applies, Kubernetes also decides whether to keep the text.
        int scale = 0;
        int precision;
        long mantissa = 1;
        if (format == Format.BINARY_SI) {
            if (exponent >= 0 && s.denom().isEmpty()) {
                mantissa = 1L << exponent;
                precision = 15 - s.num().length() - (int) ((float) exponent * 3 / 10) - 1;
            } else {
                precision = -1;
            }
        } else {
            scale = exponent;
            precision = MAX_INT64_FACTORS - (s.num().length() + s.denom().length());
        }
        if (precision >= 0) {
            scale -= s.denom().length();
            if (scale >= NANO) {
                String shifted = s.num() + s.denom();
                long value;
                try {
                    value = Long.parseLong(shifted);
                } catch (NumberFormatException e) {
                    return str;
                }
                Long product = multiply(value, mantissa);
                if (product != null) {
                    long result = s.positive() ? product : -product;
                    if (keepsText(format, exponent, scale, shifted, value)) {
                        return str;
                    }
                    return canonical(BigDecimal.valueOf(result, -scale), format);
                }
            }
        }
        BigDecimal amount = exact(s, suffix);
        return amount == null ? str : canonical(amount, format);
    }

    /** Kubernetes' judgement that the text it parsed is already canonical, so it keeps it. */
    private static boolean keepsText(Format format, int exponent, int scale, String shifted, long value) {
        if (format == Format.BINARY_SI) {
            return exponent % 10 == 0 && (value & 0x07) != 0;
        }
        return scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
    }

    /**
     * The exact value as Kubernetes' slow path computes it: rounded up to nano, binary capped at
     * int64; null if the number is malformed.
     */
    private static BigDecimal exact(Scanned s, Suffix suffix) {
        BigDecimal amount = decimal(s.value());
        if (amount == null) {
            return null;
        }
        if (suffix.base() == 10) {
            amount = amount.scaleByPowerOfTen(suffix.exponent());
        } else {
            amount = amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(suffix.exponent())));
        }
        int sign = amount.signum();
        amount = amount.abs();
        if (sign != 0 && amount.scale() > -NANO) {
            amount = amount.setScale(-NANO, RoundingMode.UP);
        }
        if (suffix.format() == Format.BINARY_SI && amount.compareTo(MAX_BINARY) > 0) {
            amount = MAX_BINARY;
        }
        return sign < 0 ? amount.negate() : amount;
    }

    private static BigDecimal decimal(String value) {
        try {
            return new BigDecimal(value);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Long multiply(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /**
     * The canonical text of a value: the largest suffix of its format that keeps the number whole.
     * A binary value below 1024 or with a fraction is written in decimal so nothing is rounded.
     */
    private static String canonical(BigDecimal amount, Format format) {
        if (amount.signum() == 0) {
            return "0";
        }
        if (format == Format.BINARY_SI) {
            boolean small = amount.compareTo(BINARY_FLOOR) > 0 && amount.compareTo(BINARY_CEILING) < 0;
            if (small || !isWhole(amount)) {
                format = Format.DECIMAL_SI;
            }
        }
        if (format == Format.BINARY_SI) {
            BigInteger number = amount.toBigIntegerExact();
            int times = 0;
            while (number.abs().compareTo(KIBI) >= 0 && number.mod(KIBI).signum() == 0) {
                number = number.divide(KIBI);
                times++;
            }
            return number + BINARY_BY_EXPONENT.getOrDefault(times * 10, "");
        }
        BigInteger number = amount.unscaledValue();
        int exponent = -amount.scale();
        while (number.mod(TEN).signum() == 0) {
            number = number.divide(TEN);
            exponent++;
        }
        while (exponent % 3 != 0) {
            number = number.multiply(TEN);
            exponent--;
        }
        if (format == Format.DECIMAL_EXPONENT) {
            return exponent == 0 ? number.toString() : number + "e" + exponent;
        }
        // Beyond E Kubernetes finds no suffix and prints the bare mantissa; so do we.
        return number + DECIMAL_BY_EXPONENT.getOrDefault(exponent, "");
    }

    private static boolean isWhole(BigDecimal amount) {
        return amount.scale() <= 0 || amount.stripTrailingZeros().scale() <= 0;
    }

    private static Suffix interpret(String suffix) {
        Integer decimal = DECIMAL_SUFFIXES.get(suffix);
        if (decimal != null) {
            return new Suffix(10, decimal, Format.DECIMAL_SI);
        }
        Integer binary = BINARY_SUFFIXES.get(suffix);
        if (binary != null) {
            return new Suffix(2, binary, Format.BINARY_SI);
        }
        if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            try {
                // Go keeps the low 32 bits of the exponent; the cast does the same.
                return new Suffix(10, (int) Long.parseLong(suffix.substring(1)), Format.DECIMAL_EXPONENT);
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** Splits the text into sign, number and suffix as Kubernetes' scanner does; null if malformed. */
    private static Scanned scan(String str) {
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
        return pos >= end ? new Scanned(positive, value, num, denom, str.substring(suffixStart)) : null;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
