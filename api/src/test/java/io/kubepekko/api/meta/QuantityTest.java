package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The one quantity parser: Kubernetes' syntax and errors (the decoder), exact values (validation,
 * QoS, the agent's flags and runtime), Value/MilliValue (the agent) and the printed form (Tables).
 * The printing cases moved here from ConfigQuantitiesTest with the code.
 */
class QuantityTest {

    @ParameterizedTest(name = "{0} prints {1}")
    @CsvSource({
        // already canonical
        "10Gi, 10Gi",
        "100m, 100m",
        "1k, 1k",
        "1500, 1500",
        "1e3, 1e3",
        // re-expressed in the largest suffix that keeps the number whole
        "1024Mi, 1Gi",
        "2048Ki, 2Mi",
        "1000Mi, 1000Mi",
        "1.5Gi, 1536Mi",
        "0.5Gi, 512Mi",
        "1000m, 1",
        "2000, 2k",
        "1000k, 1M",
        "0.5, 500m",
        "0.1, 100m",
        "1.0, 1",
        "1.5e3, 1500",
        "10e2, 1e3",
        // binary below 1024 or fractional falls back to decimal
        "0.5Ki, 512",
        "1.1Ki, 1126400m",
        // finer than nano rounds up
        "0.0000000001, 1n",
        "0.0000000015, 2n",
        // zeros
        "0, 0",
        "00, 0",
        "0Gi, 0",
        "0.000, 0",
        "-0, 0",
        // negative
        "-1024Mi, -1Gi",
        "-0.5, -500m",
        // Kubernetes keeps the text its fast parser deems canonical, quirks included
        "1.500, 1.500",
        "01, 01",
        "+5, +5",
        "1E3, 1E3",
        // beyond E there is no suffix and Kubernetes prints the bare mantissa
        "1000E, 1",
    })
    void printsAsKubernetes(String text, String printed) {
        assertEquals(printed, Quantity.print(text));
    }

    @Test
    void missingIsZeroAndNumbersParseLikeText() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        assertEquals("0", Quantity.print((JsonNode) null));
        assertEquals("0", Quantity.print(f.nullNode()));
        assertEquals("2", Quantity.print(f.numberNode(2)));
        assertEquals("1500m", Quantity.print(f.numberNode(1.5)));
        assertEquals("0", Quantity.print(f.objectNode()));
    }

    /**
     * Kubernetes rounds what is finer than nano up to 1n; an exponent like 1e999999999 is held at
     * 10^1000, so that sums of such values stay a few hundred digits (a request once reached a 500:
     * BigInteger would overflow supported range).
     */
    @Test
    void extremeExponentsAddUpWithoutExpandingIntoDigits() {
        BigDecimal sum =
                Quantity.parse("1e999999999")
                        .orElseThrow()
                        .amount()
                        .add(Quantity.parse("1e-999999999").orElseThrow().amount());
        assertEquals(1010, sum.precision());
        assertEquals("1e-9", Quantity.print("1e-999999999"));
        assertEquals("1n", Quantity.print("0.1n"));
    }

    @Test
    void textThatIsNotAQuantityIsShownUnchanged() {
        assertEquals("lots", Quantity.print("lots"));
        assertEquals("1Qi", Quantity.print("1Qi"));
        assertEquals("1.2.3", Quantity.print("1.2.3"));
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "500m, 0.5",
        "1Ki, 1024",
        "1.5Gi, 1610612736",
        "10Mi, 10485760",
        "2k, 2000",
        "1e3, 1000",
        "1E-3, 0.001",
        "1.5e3, 1500",
        "+5, 5",
        "-0.5, -0.5",
        ".5, 0.5",
        "5., 5",
        "0.0000000001, 0.000000001",
        "1e-999999999, 0.000000001",
        "-1e-999999999, -0.000000001",
        "1e999999999, 1e1000",
        "' 10Mi ', 10485760",
    })
    void parsesTheValueWrittenToNanoPrecision(String text, String value) {
        Optional<Quantity> q = Quantity.parse(text);
        assertTrue(q.isPresent(), text);
        assertEquals(0, new BigDecimal(value).compareTo(q.get().amount()), text + " is " + q.get());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''|" + Quantity.FORMAT_WRONG,
                "abc|" + Quantity.FORMAT_WRONG,
                "1.2.3|" + Quantity.FORMAT_WRONG,
                "1Qi|" + Quantity.FORMAT_WRONG,
                "1mm|" + Quantity.SUFFIX,
                "1e|" + Quantity.SUFFIX,
                "1e+|" + Quantity.SUFFIX,
                "1e123456789012|" + Quantity.SUFFIX,
                ".|" + Quantity.NUMERIC,
                "-.m|" + Quantity.NUMERIC,
            })
    void refusesTextThatIsNoQuantityInKubernetesWords(String text, String error) {
        assertEquals(Optional.of(error), Quantity.syntaxError(text));
        assertFalse(Quantity.parse(text).isPresent(), text);
    }

    @Test
    void whatTheSyntaxAcceptsParsesSoTheDecoderAndValidationAgree() {
        for (String text : new String[] {"-", "+", "0", "Ki", "1e12345678901", "1E+5"}) {
            assertEquals(Optional.empty(), Quantity.syntaxError(text), text);
            assertTrue(Quantity.parse(text).isPresent(), text);
        }
    }

    @Test
    void jsonNumbersAreTheirValueAndMissingIsEmpty() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        assertEquals(Quantity.parse("1.5").get(), Quantity.of(f.numberNode(1.5)).get());
        assertEquals(Quantity.parse("1Ki").get(), Quantity.of(f.textNode("1024")).get());
        assertFalse(Quantity.of(null).isPresent());
        assertFalse(Quantity.of(f.nullNode()).isPresent());
        assertFalse(Quantity.of(f.missingNode()).isPresent());
        assertFalse(Quantity.of(f.textNode("lots")).isPresent());
    }

    @ParameterizedTest(name = "{0}: Value {1}, MilliValue {2}")
    @CsvSource({
        "1, 1, 1000",
        "500m, 1, 500",
        "1.0001, 2, 1001",
        "0.1m, 1, 1",
        "128Mi, 134217728, 134217728000",
        "-1.5, -1, -1500",
        "8Ei, 9223372036854775807, 9223372036854775807",
        "1e9999999999, 9223372036854775807, 9223372036854775807",
        "-1e30, -9223372036854775808, -9223372036854775808",
        "1e-999999999, 1, 1",
        "-1e-999999999, 0, 0",
    })
    void valueAndMilliValueRoundUpAndSaturateLikeKubernetes(String text, long value, long milli) {
        Quantity q = Quantity.parse(text).orElseThrow();
        assertEquals(value, q.value());
        assertEquals(milli, q.milliValue());
    }

    @Test
    void fitsInt64SaysWhetherValueSaturated() {
        assertTrue(Quantity.parse("7Ei").orElseThrow().fitsInt64());
        assertFalse(Quantity.parse("8Ei").orElseThrow().fitsInt64());
    }

    @Test
    void sumsAndDifferencesStayWithinTheBoundsOfAParsedQuantity() {
        Quantity largest = Quantity.parse("1e999999999").orElseThrow();
        Quantity q = largest;
        for (int i = 0; i < 10_000; i++) {
            q = q.plus(q);
        }
        assertEquals(0, largest.compareTo(q));
        assertEquals(0, largest.amount().negate().compareTo(Quantity.of(0).minus(q).amount()));
        assertEquals(
                0,
                Quantity.parse("2").orElseThrow().compareTo(Quantity.of(5).minus(Quantity.of(3))));
    }
}
