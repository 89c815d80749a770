package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ConfigQuantitiesTest {

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
        assertEquals(printed, ConfigQuantities.format(text));
    }

    @Test
    void missingIsZeroAndNumbersParseLikeText() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        assertEquals("0", ConfigQuantities.format((JsonNode) null));
        assertEquals("0", ConfigQuantities.format(f.nullNode()));
        assertEquals("2", ConfigQuantities.format(f.numberNode(2)));
        assertEquals("1500m", ConfigQuantities.format(f.numberNode(1.5)));
        assertEquals("0", ConfigQuantities.format(f.objectNode()));
    }

    @Test
    void textThatIsNotAQuantityIsShownUnchanged() {
        assertEquals("lots", ConfigQuantities.format("lots"));
        assertEquals("1Qi", ConfigQuantities.format("1Qi"));
        assertEquals("1.2.3", ConfigQuantities.format("1.2.3"));
    }
}
