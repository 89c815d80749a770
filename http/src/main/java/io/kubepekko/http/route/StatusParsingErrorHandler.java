package io.kubepekko.http.route;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.encoding.Negotiation;
import org.apache.pekko.event.LoggingAdapter;
import org.apache.pekko.http.ParsingErrorHandler;
import org.apache.pekko.http.javadsl.model.HttpResponse;
import org.apache.pekko.http.scaladsl.model.ErrorInfo;
import org.apache.pekko.http.scaladsl.model.StatusCode;
import org.apache.pekko.http.scaladsl.settings.ServerSettings;

/**
 * Answers a request Pekko HTTP could not parse (request line, headers, framing) with a {@code
 * Status} instead of Pekko's plain text, with the code kube-apiserver's Go server gives the same
 * request: an unknown method ({@code FOO}, lowercase {@code get}) is 405, since Go reads any token
 * as a method and kube refuses it; a request line or header over the limits is 431, since Go counts
 * the request line in its header limit. Named by {@code pekko.http.server.parsing.error-handler};
 * Pekko closes the connection after the answer.
 */
public final class StatusParsingErrorHandler extends ParsingErrorHandler {

    static final String NOT_ALLOWED =
            "the server does not allow this method on the requested resource";

    @Override
    public HttpResponse handle(
            StatusCode status, ErrorInfo error, LoggingAdapter log, ServerSettings settings) {
        // Debug only: anyone can send a malformed request, and Go's server logs none of them
        // either.
        log.debug(
                "refused a request that could not be parsed ({}): {}",
                status.intValue(),
                error.formatPretty());
        return Encoder.status(
                statusFor(status.intValue(), error.summary(), status.defaultMessage()),
                Negotiation.Format.JSON);
    }

    static ApiStatus statusFor(int code, String summary, String defaultMessage) {
        String message = summary == null || summary.isEmpty() ? defaultMessage : summary;
        return switch (code) {
            case 501 -> ApiStatus.methodNotAllowed(NOT_ALLOWED);
            case 414, 431 ->
                    new ApiStatus(431, null, "Request Header Fields Too Large: " + message, null);
            case 400 -> ApiStatus.badRequest(message);
            case 413 -> ApiStatus.requestEntityTooLarge(message);
            default -> new ApiStatus(code, null, message, null);
        };
    }
}
