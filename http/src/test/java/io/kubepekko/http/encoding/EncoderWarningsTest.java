package io.kubepekko.http.encoding;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpHeader;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.javadsl.model.headers.RawHeader;
import org.junit.jupiter.api.Test;

class EncoderWarningsTest {

    private static List<String> headers(HttpResponse r) {
        List<String> out = new ArrayList<>();
        for (HttpHeader h : r.getHeaders()) {
            out.add(h.name() + ": " + h.value());
        }
        return out;
    }

    @Test
    void aResponsesWarningsAreRecordedOnceWhereTheFirstWas() {
        HttpResponse r =
                Encoder.withWarnings(
                        HttpResponse.create().addHeader(RawHeader.create("Audit-Id", "a")),
                        List.of("deleting one", "careful now", "bad\nline"));
        r = Encoder.withWarnings(r, List.of("careful now", "deleting two"));
        r = Encoder.withWarningsFirst(r, List.of("v1beta1 is deprecated"));
        assertEquals(
                List.of(
                        "Warning: 299 - \"v1beta1 is deprecated\"",
                        "Warning: 299 - \"deleting one\"",
                        "Warning: 299 - \"careful now\"",
                        "Warning: 299 - \"deleting two\"",
                        "Audit-Id: a"),
                headers(Encoder.recordedWarnings(r)));
    }

    @Test
    void warningsKubesRecorderKeepsAsTheyAreLeaveTheResponseAsItIs() {
        HttpResponse r = Encoder.withWarnings(HttpResponse.create(), List.of("a", "b"));
        assertSame(r, Encoder.recordedWarnings(r));
    }

    @Test
    void aHugeWarningIsCutToKubesItemLimit() {
        HttpResponse r =
                Encoder.withWarnings(HttpResponse.create(), List.of("x".repeat(100_000), "y"));
        assertEquals(
                List.of("Warning: 299 - \"" + "x".repeat(256) + "\"", "Warning: 299 - \"y\""),
                headers(Encoder.recordedWarnings(r)));
    }
}
