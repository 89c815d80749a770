package io.kubepekko.http.route;

import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.store.WriteResult;
import io.kubepekko.http.encoding.Encoder;
import io.kubepekko.http.route.ResourceHandler.Request;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.http.javadsl.model.HttpResponse;

/** The one place a write's answer becomes its HTTP status and body. */
final class WriteResponses {

    private WriteResponses() {}

    /**
     * {@code result} as the response: a refusal answers as every failed request does, a Status in
     * the encoding negotiated for errors, not for the object, and without the decoding's warnings.
     * Through a version stored as another ({@code kind}, null for none), the body is that version's
     * object and a refusal names that version's resource.
     */
    static HttpResponse of(
            WriteResult result, Request r, List<String> decodeWarnings, ServedKind kind) {
        boolean converted = kind != null && !kind.isStorageVersion();
        if (result instanceof WriteResult.Refused refused) {
            return r.refusal(converted ? kind.refusal(refused.status()) : refused.status());
        }
        WriteResult.Success w = (WriteResult.Success) result;
        int code =
                w instanceof WriteResult.Created
                        ? 201
                        : w instanceof WriteResult.Accepted ? 202 : 200;
        List<String> warnings = decodeWarnings;
        if (!w.warnings().isEmpty()) {
            warnings = new ArrayList<>(decodeWarnings);
            warnings.addAll(w.warnings());
        }
        byte[] body = converted ? kind.responseBody(w.body()) : w.body();
        return Encoder.json(code, body, r.format(), r.pretty(), warnings);
    }
}
