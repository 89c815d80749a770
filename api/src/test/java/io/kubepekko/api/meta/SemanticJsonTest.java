package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SemanticJsonTest {

    @ParameterizedTest(name = "{0} vs {1}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "{}|{}|true",
                "{\"a\":null}|{}|true",
                "{\"a\":[]}|{}|true",
                "{\"a\":{}}|{\"a\":null}|true",
                "{\"a\":{\"b\":[]}}|{}|true",
                "{\"a\":[1]}|{}|false",
                "{\"a\":\"\"}|{}|false",
                "{\"a\":[{\"x\":null}]}|{\"a\":[{}]}|true",
                "{\"a\":[1,2]}|{\"a\":[2,1]}|false",
                "{\"a\":1}|{\"a\":1}|true",
            })
    void absentNullAndEmptyAreTheSameAsGosNilAndEmpty(String a, String b, boolean equal) {
        assertEquals(
                equal,
                SemanticJson.equal(
                        Json.parseTrusted(a.getBytes(StandardCharsets.UTF_8)),
                        Json.parseTrusted(b.getBytes(StandardCharsets.UTF_8))));
        assertEquals(
                equal,
                SemanticJson.equal(
                        Json.parseTrusted(b.getBytes(StandardCharsets.UTF_8)),
                        Json.parseTrusted(a.getBytes(StandardCharsets.UTF_8))));
    }
}
