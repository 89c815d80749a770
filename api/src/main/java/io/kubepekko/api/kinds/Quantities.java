package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough of {@code resource.Quantity} for validation and QoS: parsing to an exact value and
 * comparing. A full Quantity type (canonical form, arithmetic) belongs to its own package.
 */
public final class Quantities {
    private Quantities() {}

    private static final Pattern QUANTITY =
            Pattern.compile("^([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)), Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)), Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)), Map.entry("Ei", BigDecimal.valueOf(1L << 60)),
            Map.entry("n", new BigDecimal("1e-9")), Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")), Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")), Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")), Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")));

    /** The exact value of a quantity string or JSON number, or {@code null} when it is not a quantity. */
    static BigDecimal parse(JsonNode v) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (v.isNumber()) {
            return v.decimalValue();
        }
        return parse(v.asText());
    }

    /** The exact value of a quantity's text ({@code 10Mi}, {@code 500m}), or {@code null} when it is not one. */
    public static BigDecimal parse(String s) {
        Matcher m = QUANTITY.matcher(s.trim());
        if (!m.matches()) {
            return null;
        }
        BigDecimal number = new BigDecimal(m.group(1).startsWith(".") || m.group(1).matches("[+-]\\..*")
                ? m.group(1).replace(".", "0.") : m.group(1));
        String suffix = m.group(2);
        if (suffix == null) {
            return number;
        }
        if (suffix.startsWith("e") || suffix.startsWith("E")) {
            return number.scaleByPowerOfTen(Integer.parseInt(suffix.substring(1)));
        }
        return number.multiply(SUFFIXES.get(suffix));
    }

    static boolean isZero(BigDecimal q) {
        return q == null || q.signum() == 0;
    }
}
