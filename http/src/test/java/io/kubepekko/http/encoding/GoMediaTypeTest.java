package io.kubepekko.http.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Content-Type values read as Go's mime.ParseMediaType reads them (which kube-apiserver uses to
 * pick a decoder).
 */
class GoMediaTypeTest {

    @ParameterizedTest(name = "\"{0}\" is {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "application/json|application/json",
                "Application/JSON|application/json",
                " application/json |application/json",
                "application/json; charset=utf-8|application/json",
                "application/json;charset=latin1|application/json",
                "application/json; charset=\"utf-8\"|application/json",
                "application/json;|application/json",
                "application/json ; |application/json",
                "application/json; a=1; b=2|application/json",
                "json|json",
                "garbage|garbage",
                "application/octet-stream|application/octet-stream",
                "application/vnd.kubernetes.protobuf|application/vnd.kubernetes.protobuf"
            })
    void readsTheMediaTypeAndIgnoresParameters(String value, String mediaType) {
        assertEquals(Optional.of(mediaType), GoMediaType.parse(value));
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(
            strings = {
                "application/json/x",
                "application/",
                "/json",
                "application / json",
                "application/json x",
                "application/json; charset",
                "application/json; charset=",
                "application/json; =utf-8",
                "application/json; a=1; a=2",
                "application/json; A=1; a=2",
                "application/json; a=\"unterminated",
                "application/json;;",
                "application/json; a=1 b=2",
                "appli(cation/json",
                "\u00fc/json"
            })
    void refusesWhatGoRefuses(String value) {
        assertEquals(Optional.empty(), GoMediaType.parse(value));
    }
}
