package io.kubepekko.api.meta;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.Optional;

/**
 * A {@code resource.Quantity} ({@code 500m}, {@code 1.5Gi}, {@code 1e3}): the one parser of
 * quantities for the decoder, validation, Table printing, the agent and its flags. Text is read as
 * Kubernetes' {@code ParseQuantity} scans it (sign, number, suffix, with its error messages); the
 * value is kept as written to nano precision (finer is rounded up, as Kubernetes does), and {@link
 * #print} gives the text kube-apiserver shows for a stored quantity.
 */
public final class Quantity implements Comparable<Quantity> {

    /** {@code resource.ErrFormatWrong}: the text is not a number followed by a suffix. */
    public static final String FORMAT_WRONG =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

    /** {@code resource.ErrNumeric}: the number part has no digits. */
    public static final String NUMERIC = "unable to parse numeric part of quantity";

    /** {@code resource.ErrSuffix}: the suffix is none Kubernetes knows. */
    public static final String SUFFIX = "unable to parse quantity's suffix";

    public static final Quantity ONE = new Quantity(BigDecimal.ONE);

    /** Digits an int64 holds without overflow; above this the parser takes its exact path. */
    private static final int MAX_INT64_FACTORS = 18;

    /** Kubernetes keeps quantities to nano precision, rounding anything finer up. */
    private static final int NANO = -9;

    /** The most digits a parsed value has before the decimal point (see {@link #bounded}). */
    private static final int MAX_DIGITS = 1000;

    private static final BigDecimal SMALLEST = BigDecimal.ONE.scaleByPowerOfTen(NANO);
    private static final BigDecimal LARGEST = BigDecimal.ONE.scaleByPowerOfTen(MAX_DIGITS);
    private static final BigDecimal MAX_INT64 = BigDecimal.valueOf(Long.MAX_VALUE);
    private static final BigDecimal MIN_INT64 = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal BINARY_FLOOR = BigDecimal.valueOf(-1024);
    private static final BigDecimal BINARY_CEILING = BigDecimal.valueOf(1024);
    private static final BigInteger TEN = BigInteger.TEN;
    private static final BigInteger KIBI = BigInteger.valueOf(1024);
    private static final Map<Integer, String> DECIMAL_BY_EXPONENT =
            Map.of(
                    -9, "n", -6, "u", -3, "m", 0, "", 3, "k", 6, "M", 9, "G", 12, "T", 15, "P", 18,
                    "E");
    private static final Map<Integer, String> BINARY_BY_EXPONENT =
            Map.of(0, "", 10, "Ki", 20, "Mi", 30, "Gi", 40, "Ti", 50, "Pi", 60, "Ei");

    private final BigDecimal amount;

    private Quantity(BigDecimal amount) {
        this.amount = amount;
    }

    // ---- reading
    // ------------------------------------------------------------------------------------------

    /**
     * Why {@code text} is no quantity, in Kubernetes' words, or empty when it is one. Surrounding
     * white space is ignored, as {@code Quantity.UnmarshalJSON} trims it.
     */
    public static Optional<String> syntaxError(String text) {
        return Optional.ofNullable(QuantitySyntax.error(QuantitySyntax.scan(text.strip())));
    }

    /**
     * The quantity in {@code text} ({@code 10Mi}, {@code 500m}), or empty when {@link #syntaxError}
     * has one.
     */
    public static Optional<Quantity> parse(String text) {
        QuantitySyntax.Scanned s = QuantitySyntax.scan(text.strip());
        if (QuantitySyntax.error(s) != null) {
            return Optional.empty();
        }
        return Optional.of(
                new Quantity(bounded(exactAmount(s, QuantitySyntax.interpret(s.suffix())))));
    }

    /**
     * The quantity at {@code node}: a JSON string as {@link #parse}, a JSON number as it is; empty
     * when absent or none.
     */
    public static Optional<Quantity> of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return Optional.empty();
        }
        if (node.isNumber()) {
            return Optional.of(new Quantity(bounded(node.decimalValue())));
        }
        return parse(node.asText());
    }

    // ---- the value
    // ----------------------------------------------------------------------------------------

    /**
     * The value written ({@code 1.5Ki} is 1536), to nano precision (rounded up beyond it, as
     * Kubernetes rounds), within 10^1000.
     */
    public BigDecimal amount() {
        return amount;
    }

    public int signum() {
        return amount.signum();
    }

    /**
     * {@code Quantity.Value()}: the integer value, rounded up; saturates at the int64 bounds like
     * Kubernetes.
     */
    public long value() {
        return ceilingInt64(amount);
    }

    /** {@code Quantity.MilliValue()}: thousandths, rounded up; saturates at the int64 bounds. */
    public long milliValue() {
        return ceilingInt64(amount.scaleByPowerOfTen(3));
    }

    /**
     * Whether the value rounded up to a whole number fits an int64 (so {@link #value} did not
     * saturate).
     */
    public boolean fitsInt64() {
        return amount.compareTo(MAX_INT64) <= 0 && amount.compareTo(MIN_INT64) >= 0;
    }

    private static long ceilingInt64(BigDecimal v) {
        // Decided before rounding: an exponent like 1e999999999 or 1e-999999999 must not be
        // expanded into digits.
        if (v.compareTo(MAX_INT64) > 0) {
            return Long.MAX_VALUE;
        }
        if (v.compareTo(MIN_INT64) < 0) {
            return Long.MIN_VALUE;
        }
        if ((long) v.precision() - v.scale() <= 0) {
            return v.signum() > 0 ? 1 : 0;
        }
        return v.setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /**
     * {@code Quantity.Add}: the sum, held within the bounds every quantity is (so a CEL expression
     * adding a quantity to itself in a loop cannot grow it to millions of digits).
     */
    public Quantity plus(Quantity other) {
        return new Quantity(bounded(amount.add(other.amount)));
    }

    /** {@code Quantity.Sub}: the difference, held within the bounds as {@link #plus}. */
    public Quantity minus(Quantity other) {
        return new Quantity(bounded(amount.subtract(other.amount)));
    }

    /** The quantity of a whole number, as {@code resource.NewQuantity}. */
    public static Quantity of(long value) {
        return new Quantity(BigDecimal.valueOf(value));
    }

    /** {@code Quantity.AsInt64}'s success: a whole number within the int64 bounds. */
    public boolean isInt64() {
        return fitsInt64() && (amount.signum() == 0 || amount.stripTrailingZeros().scale() <= 0);
    }

    @Override
    public int compareTo(Quantity other) {
        return amount.compareTo(other.amount);
    }

    /** Equal values are equal quantities, however written ({@code 1Ki} and {@code 1024}). */
    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && amount.compareTo(q.amount) == 0;
    }

    @Override
    public int hashCode() {
        return amount.signum() == 0 ? 0 : amount.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return amount.toPlainString();
    }

    // ---- printing
    // -----------------------------------------------------------------------------------------

    /**
     * A quantity field as kube prints it; {@code 0} when it is missing (Go's zero Quantity). Text
     * that is not a quantity cannot reach kube's printer; we show it as it is.
     */
    public static String print(JsonNode node) {
        if (node == null) {
            return "0";
        }
        if (node.isTextual()) {
            return print(node.asText());
        }
        if (node.isNumber()) {
            return print(node.numberValue().toString());
        }
        return "0";
    }

    /**
     * A quantity's text as kube prints it once parsed; unparseable text comes back unchanged. We
     * store quantities as the client wrote them, while kube-apiserver parses them and prints the
     * parsed value: mostly its canonical form ({@code 1024Mi} prints {@code 1Gi}, {@code 1000m}
     * prints {@code 1}, {@code 0.5} prints {@code 500m}), except that Kubernetes keeps the original
     * text when its fast parser judges it already canonical ({@code 1.500} stays {@code 1.500});
     * this follows both rules.
     */
    public static String print(String str) {
        if (str.equals("0")) {
            return str;
        }
        QuantitySyntax.Scanned s = QuantitySyntax.scan(str);
        if (QuantitySyntax.error(s) != null) {
            return str;
        }
        QuantitySyntax.Suffix suffix = QuantitySyntax.interpret(s.suffix());
        QuantitySyntax.Format format = suffix.format();
        int exponent = suffix.exponent();

        // The int64 fast path: where it applies, Kubernetes also decides whether to keep the text.
        int scale = 0;
        int precision;
        long mantissa = 1;
        if (format == QuantitySyntax.Format.BINARY_SI) {
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
        return canonical(roundedAmount(s, suffix), format);
    }

    /**
     * How kube prints a value it computed from quantities (a sum, which keeps the format of its
     * first addend): canonical, in the format of the quantity written as {@code like} ({@code 1Gi}
     * binary, {@code 1e3} exponent, else decimal).
     */
    public static String print(BigDecimal amount, String like) {
        QuantitySyntax.Scanned s = QuantitySyntax.scan(like.strip());
        QuantitySyntax.Format format =
                QuantitySyntax.error(s) == null
                        ? QuantitySyntax.interpret(s.suffix()).format()
                        : QuantitySyntax.Format.DECIMAL_SI;
        return canonical(amount, format);
    }

    /** Kubernetes' judgement that the text it parsed is already canonical, so it keeps it. */
    private static boolean keepsText(
            QuantitySyntax.Format format, int exponent, int scale, String shifted, long value) {
        if (format == QuantitySyntax.Format.BINARY_SI) {
            return exponent % 10 == 0 && (value & 0x07) != 0;
        }
        return scale % 3 == 0 && !shifted.endsWith("000") && shifted.charAt(0) != '0';
    }

    /**
     * The value written, exactly; a number without digits ({@code Ki}, {@code -m}) is zero, as
     * Kubernetes reads it.
     */
    private static BigDecimal exactAmount(QuantitySyntax.Scanned s, QuantitySyntax.Suffix suffix) {
        BigDecimal amount =
                QuantitySyntax.hasDigit(s.value()) ? new BigDecimal(s.value()) : BigDecimal.ZERO;
        if (suffix.base() == 10) {
            return amount.scaleByPowerOfTen(suffix.exponent());
        }
        return amount.multiply(new BigDecimal(BigInteger.ONE.shiftLeft(suffix.exponent())));
    }

    /**
     * A value within the bounds its arithmetic stays cheap in: finer than nano rounded up to nano,
     * as Kubernetes' parser rounds every quantity, and no larger in magnitude than 10^{@value
     * #MAX_DIGITS}. Kubernetes keeps an exponent like {@code 1e999999999} as written; a sum of it
     * and {@code 1n} would need a billion digits (a request must not get there), and no resource is
     * counted anywhere near that size, so it is held at the bound.
     */
    private static BigDecimal bounded(BigDecimal exact) {
        BigDecimal amount = toNano(exact);
        if ((long) amount.precision() - amount.scale() > MAX_DIGITS) {
            return amount.signum() < 0 ? LARGEST.negate() : LARGEST;
        }
        return amount;
    }

    /**
     * Rounded up (away from zero) to nano precision, decided from the digits' count before any
     * rounding: a value like {@code 1e-999999999} is not expanded into digits, it is 1n.
     */
    private static BigDecimal toNano(BigDecimal exact) {
        int sign = exact.signum();
        if (sign == 0 || exact.scale() <= -NANO) {
            return exact;
        }
        if ((long) exact.precision() - exact.scale() <= NANO) {
            return sign < 0 ? SMALLEST.negate() : SMALLEST;
        }
        return exact.setScale(-NANO, RoundingMode.UP);
    }

    /** The value as Kubernetes' slow path keeps it: rounded up to nano, binary capped at int64. */
    private static BigDecimal roundedAmount(
            QuantitySyntax.Scanned s, QuantitySyntax.Suffix suffix) {
        BigDecimal amount = toNano(exactAmount(s, suffix));
        int sign = amount.signum();
        amount = amount.abs();
        if (suffix.format() == QuantitySyntax.Format.BINARY_SI && amount.compareTo(MAX_INT64) > 0) {
            amount = MAX_INT64;
        }
        return sign < 0 ? amount.negate() : amount;
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
    private static String canonical(BigDecimal amount, QuantitySyntax.Format format) {
        if (amount.signum() == 0) {
            return "0";
        }
        if (format == QuantitySyntax.Format.BINARY_SI) {
            boolean small =
                    amount.compareTo(BINARY_FLOOR) > 0 && amount.compareTo(BINARY_CEILING) < 0;
            if (small || !isWhole(amount)) {
                format = QuantitySyntax.Format.DECIMAL_SI;
            }
        }
        if (format == QuantitySyntax.Format.BINARY_SI) {
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
        if (format == QuantitySyntax.Format.DECIMAL_EXPONENT) {
            return exponent == 0 ? number.toString() : number + "e" + exponent;
        }
        // Beyond E Kubernetes finds no suffix and prints the bare mantissa; so do we.
        return number + DECIMAL_BY_EXPONENT.getOrDefault(exponent, "");
    }

    private static boolean isWhole(BigDecimal amount) {
        return amount.scale() <= 0 || amount.stripTrailingZeros().scale() <= 0;
    }
}
