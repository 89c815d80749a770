package io.kubepekko.api.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.meta.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's fmt rendering of decoded JSON, which strategic merge patch errors quote. */
class GoFormatTest {

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
                "1e300|1e+300"
            })
    void float64AsStrconvFormatsItShortest(double value, String go) {
        assertEquals(go, GoFormat.float64(value));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{\"b\":[1,\"x\",true,null],\"a\":{\"z\":1.25}}|map[a:map[z:1.25] b:[1 x true <nil>]]|"
                        + "map[a:map[z:%!s(float64=1.25)] b:[%!s(int64=1) x %!s(bool=true) %!s(<nil>)]]",
                "\"text\"|text|text"
            })
    void mapsListsAndScalarsAsFmtPrintsThem(String json, String v, String s) throws Exception {
        assertEquals(v, GoFormat.v(Json.MAPPER.readTree(json)));
        assertEquals(s, GoFormat.s(Json.MAPPER.readTree(json)));
    }
}
