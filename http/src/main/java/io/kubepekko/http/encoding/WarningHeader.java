package io.kubepekko.http.encoding;

import io.kubepekko.api.status.FieldError;
import org.apache.pekko.http.scaladsl.model.headers.CustomHeader;

/**
 * A {@code Warning: 299 - "text"} response header that keeps its text: the warnings of a response
 * are added in several places (decoding, admission, deprecation, authentication), and are bounded
 * as kube's warning recorder only once all are there ({@link Encoder#recordedWarnings}). (The Scala
 * model's CustomHeader: the Java one leaves rendering abstract.)
 */
final class WarningHeader extends CustomHeader {

    private final String text;

    WarningHeader(String text) {
        this.text = text;
    }

    String text() {
        return text;
    }

    @Override
    public String name() {
        return "Warning";
    }

    @Override
    public String value() {
        return "299 - " + FieldError.quote(text);
    }

    @Override
    public boolean renderInRequests() {
        return false;
    }

    @Override
    public boolean renderInResponses() {
        return true;
    }
}
