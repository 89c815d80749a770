package io.kubepekko.api.patch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.meta.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's fmt rendering of decoded JSON, which strategic merge patch errors quote. */
class GoFormatTest {

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
