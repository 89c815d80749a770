package io.kubepekko.api.meta;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Doubles printed as Go's {@code strconv} and {@code fmt} print a {@code float64}: the shortest
 * digits that read back as the value ({@code %g}, {@code %v}, {@code FormatFloat(x, 'g' or 'f', -1,
 * 64)}), or a fixed number of fraction digits ({@code %.Nf}). Rounding is Go's: the exact binary
 * value, ties to even. Kube's messages quote values so (patch errors), and so does cel-go's {@code
 * format}.
 */
public final class GoFloats {

    private GoFloats() {}

    /**
     * Go's {@code strconv.FormatFloat(x, 'g', -1, 64)}, which is also {@code fmt}'s {@code %g} and
     * {@code %v}: the shortest digits, in exponent form below 1e-4 and from 1e6 (strconv's
     * "precision 6 for this decision" with the shortest digits), so 1e+06 and 1.234567e+06 but
     * 123456.
     */
    public static String g(double x) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "+Inf" : "-Inf";
        }
        String sign = negative(x) ? "-" : "";
        if (x == 0) {
            return sign + "0";
        }
        BigDecimal digits = shortestDigits(Math.abs(x));
        // The decimal point's position: d1.d2... times 10^exp.
        int exp = digits.precision() - digits.scale() - 1;
        if (exp < -4 || exp >= 6) {
            String mantissa = digits.unscaledValue().toString();
            String frac = mantissa.length() > 1 ? "." + mantissa.substring(1) : "";
            return sign + mantissa.charAt(0) + frac + "e" + (exp < 0 ? "-" : "+") + twoDigits(exp);
        }
        return sign + digits.toPlainString();
    }

    /**
     * strconv's {@code FormatFloat(x, 'f', -1, 64)} of a finite {@code x}: the shortest digits,
     * never an exponent.
     */
    public static String shortestPlain(double x) {
        String sign = negative(x) ? "-" : "";
        if (x == 0) {
            return sign + "0";
        }
        return sign + shortestDigits(Math.abs(x)).toPlainString();
    }

    /** Go's {@code fmt.Sprintf("%.Nf", x)} for N {@code precision}, no grouping. */
    public static String fixedPlain(double x, int precision) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "+Inf" : "-Inf";
        }
        String sign = negative(x) ? "-" : "";
        return sign
                + new BigDecimal(Math.abs(x))
                        .setScale(precision, RoundingMode.HALF_EVEN)
                        .toPlainString();
    }

    /**
     * The fewest significant digits that read back as {@code x} (positive, finite), the closest to
     * it of that many: Go's shortest formatting. No trailing zeros (the scale may be negative).
     */
    public static BigDecimal shortestDigits(double x) {
        BigDecimal exact = new BigDecimal(x);
        for (int p = 1; p < 17; p++) {
            BigDecimal candidate = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == x) {
                return candidate.stripTrailingZeros();
            }
        }
        return exact.round(new MathContext(17, RoundingMode.HALF_EVEN)).stripTrailingZeros();
    }

    private static String twoDigits(int exp) {
        String e = Integer.toString(Math.abs(exp));
        return e.length() < 2 ? "0" + e : e;
    }

    /** Go keeps the sign of negative zero. */
    private static boolean negative(double x) {
        return x < 0 || (x == 0 && 1 / x < 0);
    }
}
