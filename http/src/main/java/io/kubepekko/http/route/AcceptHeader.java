package io.kubepekko.http.route;

import io.kubepekko.http.encoding.Negotiation;
import java.math.BigDecimal;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.HttpRequest;
import org.apache.pekko.http.javadsl.model.headers.Accept;

/** A request's Accept header as the handlers read it, and the encoding of a Status it asks for. */
final class AcceptHeader {

    private AcceptHeader() {}

    /**
     * The Accept header's value. Pekko parses a well-formed one into media ranges and renders it
     * back with each q rounded to three decimals ({@code q=0.0001} became {@code q=0.0}, not
     * acceptable), so the ranges are written out again here with their q in full.
     */
    static String of(HttpRequest request) {
        Optional<Accept> modeled = request.getHeader(Accept.class);
        if (modeled.isEmpty()) {
            return request.getHeader("Accept").map(h -> h.value()).orElse("");
        }
        StringBuilder b = new StringBuilder();
        for (org.apache.pekko.http.javadsl.model.MediaRange range :
                modeled.get().getMediaRanges()) {
            if (b.length() > 0) {
                b.append(", ");
            }
            b.append(
                    ((org.apache.pekko.http.scaladsl.model.MediaRange) range.withQValue(1f))
                            .value());
            if (range.qValue() != 1f) {
                b.append(";q=")
                        .append(new BigDecimal(Float.toString(range.qValue())).toPlainString());
            }
        }
        return b.toString();
    }

    /**
     * The encoding of a Status answering a request that sent {@code accept}, read once: the
     * handlers answer a refusal in it, and so does {@link ApiHandler}'s failure.
     */
    static Negotiation.Format statusFormat(String accept) {
        try {
            return Negotiation.objectFormat(accept);
        } catch (RuntimeException unreadable) {
            // An Accept header this server could not read: the error still goes out, as JSON.
            return Negotiation.Format.JSON;
        }
    }
}
