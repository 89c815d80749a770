package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's strconv and fmt float formatting, which kube's patch errors and cel-go's format print. */
class GoFloatsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1.5|1.5",
                "-2.5|-2.5",
                "1000000.0|1e+06",
                "123456.0|123456",
                "1234567.5|1.2345675e+06",
                "0.0001|0.0001",
                "0.00001|1e-05",
                "1.0|1",
                "1e300|1e+300",
                "0.1|0.1",
                "-0.0|-0",
                "0.0|0",
                // Go's shortest digits, where Java 17's Double.toString prints 4.9E-324.
                "4.9E-324|5e-324",
                "1.7976931348623157E308|1.7976931348623157e+308"
            })
    void gAsStrconvFormatsItShortest(double value, String go) {
        assertEquals(go, GoFloats.g(value));
    }

    @Test
    void gSpellsTheSpecialValuesAsGo() {
        assertEquals("NaN", GoFloats.g(Double.NaN));
        assertEquals("+Inf", GoFloats.g(Double.POSITIVE_INFINITY));
        assertEquals("-Inf", GoFloats.g(Double.NEGATIVE_INFINITY));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "1e21|1000000000000000000000",
                "1.5e-7|0.00000015",
                "0.1|0.1",
                "-0.0|-0",
                "2.0|2"
            })
    void shortestPlainHasNoExponent(double value, String go) {
        assertEquals(go, GoFloats.shortestPlain(value));
    }

    @ParameterizedTest(name = "{0} %.{1}f -> {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "2.5|6|2.500000",
                // Ties to even on the exact binary value: 0.125 is exact, 1.005 is below.
                "0.125|2|0.12",
                "1.005|2|1.00",
                "-0.0|1|-0.0",
                "1e20|0|100000000000000000000"
            })
    void fixedPlainRoundsTheExactValue(double value, int precision, String go) {
        assertEquals(go, GoFloats.fixedPlain(value, precision));
    }

    @Test
    void fixedPlainSpellsTheSpecialValuesAsGo() {
        assertEquals("NaN", GoFloats.fixedPlain(Double.NaN, 6));
        assertEquals("+Inf", GoFloats.fixedPlain(Double.POSITIVE_INFINITY, 6));
        assertEquals("-Inf", GoFloats.fixedPlain(Double.NEGATIVE_INFINITY, 6));
    }
}
