package io.kubepekko.api.admission.cel;

import io.kubepekko.api.meta.GoFloats;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.function.DoubleFunction;

/**
 * Doubles printed as cel-go's {@code format} prints its {@code %f} and {@code %e} clauses, through
 * {@code golang.org/x/text/message} in en-US: digits grouped by three with commas, {@code ∞}, and
 * scientific notation as {@code 1.052033 × 10⁰³} with narrow no-break spaces, which is what Go
 * prints though CLDR does not ask for them. Rounding is Go's: the exact binary value, ties to even.
 * Go's own {@code fmt} and {@code strconv} numbers (a double's {@code %s}, {@code %.6f} inside
 * lists and maps, a duration's seconds) are {@link GoFloats}'.
 */
final class EnUsFloats {

    /** x/text's en-US superscripting exponent, narrow no-break spaces around the sign. */
    private static final String TIMES_TEN = "\u202f\u00d7\u202f10";

    private static final String[] SUPERSCRIPT_DIGITS = {
        "\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074", "\u2075", "\u2076", "\u2077", "\u2078",
        "\u2079"
    };
    private static final String SUPERSCRIPT_MINUS = "\u207b";

    private EnUsFloats() {}

    /**
     * x/text's en-US {@code %.Nf}. Its formatter keeps the minimum fraction digits in a byte and
     * the maximum in a 16-bit int, so precisions past 255 wrap as Go's do (the value rounded to
     * {@code int16(N)} fraction digits, trailing zeros kept only up to {@code uint8(N)}; no
     * rounding when the 16-bit value is negative).
     */
    static String fixedEnUs(double x, long precision) {
        return signed(x, magnitude -> fixedMagnitude(magnitude, precision));
    }

    private static String fixedMagnitude(double magnitude, long precision) {
        int minFrac = (int) (precision & 0xff);
        int maxFrac = (short) precision;
        BigDecimal abs = new BigDecimal(magnitude);
        BigDecimal rounded;
        if (maxFrac < 0) {
            rounded = magnitude == 0 ? BigDecimal.ZERO : GoFloats.shortestDigits(magnitude);
        } else {
            rounded = abs.scale() <= maxFrac ? abs : abs.setScale(maxFrac, RoundingMode.HALF_EVEN);
        }
        rounded = strip(rounded);
        if (rounded.scale() < minFrac) {
            rounded = rounded.setScale(minFrac);
        }
        String plain = rounded.toPlainString();
        int point = plain.indexOf('.');
        String integer = point < 0 ? plain : plain.substring(0, point);
        String fraction = point < 0 ? "" : plain.substring(point);
        return grouped(integer) + fraction;
    }

    /**
     * x/text's en-US {@code %.Ne}: one integer digit, N fraction digits, and the exponent as {@code
     * × 10} and at least two superscript digits. Precisions wrap as {@link #fixedEnUs}.
     */
    static String scientificEnUs(double x, long precision) {
        return signed(x, magnitude -> scientificMagnitude(magnitude, precision));
    }

    private static String scientificMagnitude(double magnitude, long precision) {
        int minFrac = (int) (precision & 0xff);
        int maxFrac = (short) precision;
        String digits;
        int exp;
        if (magnitude == 0) {
            digits = "0";
            exp = 0;
        } else {
            BigDecimal abs = new BigDecimal(magnitude);
            BigDecimal rounded =
                    maxFrac < 0
                            ? GoFloats.shortestDigits(magnitude)
                            : abs.round(new MathContext(maxFrac + 1, RoundingMode.HALF_EVEN))
                                    .stripTrailingZeros();
            digits = rounded.unscaledValue().toString();
            exp = rounded.precision() - rounded.scale() - 1;
        }
        StringBuilder out = new StringBuilder().append(digits.charAt(0));
        String fraction = digits.substring(1);
        if (fraction.length() < minFrac) {
            fraction = fraction + "0".repeat(minFrac - fraction.length());
        }
        if (!fraction.isEmpty()) {
            out.append('.').append(fraction);
        }
        out.append(TIMES_TEN);
        if (exp < 0) {
            out.append(SUPERSCRIPT_MINUS);
        }
        for (char c : twoDigits(exp).toCharArray()) {
            out.append(SUPERSCRIPT_DIGITS[c - '0']);
        }
        return out.toString();
    }

    /**
     * x/text's NaN and infinities ({@code ∞} with a minus when negative, never {@code +Inf} as Go's
     * {@code fmt}), else the minus of a negative {@code x} before {@code magnitude}'s print of
     * {@code |x|} (negative zero gets none).
     */
    private static String signed(double x, DoubleFunction<String> magnitude) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        String sign = x < 0 ? "-" : "";
        if (Double.isInfinite(x)) {
            return sign + "\u221e";
        }
        return sign + magnitude.apply(Math.abs(x));
    }

    /** Trailing zeros dropped, but never a negative scale (no exponent in plain strings). */
    private static BigDecimal strip(BigDecimal d) {
        BigDecimal s = d.stripTrailingZeros();
        return s.scale() < 0 ? s.setScale(0) : s;
    }

    private static String grouped(String integer) {
        StringBuilder out = new StringBuilder();
        int n = integer.length();
        for (int i = 0; i < n; i++) {
            if (i > 0 && (n - i) % 3 == 0) {
                out.append(',');
            }
            out.append(integer.charAt(i));
        }
        return out.toString();
    }

    private static String twoDigits(int exp) {
        String e = Integer.toString(Math.abs(exp));
        return e.length() < 2 ? "0" + e : e;
    }
}
