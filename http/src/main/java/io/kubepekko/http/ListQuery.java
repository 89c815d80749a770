package io.kubepekko.http;

import io.kubepekko.api.status.ApiStatus;
import org.apache.pekko.http.javadsl.model.Query;

import java.util.List;
import java.util.Optional;

/**
 * Checks the typed query parameters of list-like requests, so that a malformed value answers 400
 * naming the parameter instead of being ignored.
 */
final class ListQuery {
    private ListQuery() {}

    private static final List<String> INTEGERS = List.of("limit", "timeoutSeconds");
    private static final List<String> BOOLEANS = List.of("watch", "allowWatchBookmarks", "sendInitialEvents");

    static void validate(Query query) {
        for (String name : INTEGERS) {
            Optional<String> v = query.get(name);
            if (v.isPresent() && !v.get().isEmpty()) {
                try {
                    Long.parseLong(v.get());
                } catch (NumberFormatException e) {
                    throw ApiStatus.badRequest("invalid value for query parameter " + name + ": strconv.ParseInt: parsing "
                            + io.kubepekko.api.status.FieldError.quote(v.get()) + ": invalid syntax").exception();
                }
            }
        }
        for (String name : BOOLEANS) {
            Optional<String> v = query.get(name);
            if (v.isPresent() && !List.of("", "true", "false", "1", "0", "True", "False", "TRUE", "FALSE", "t", "f", "T", "F")
                    .contains(v.get())) {
                throw ApiStatus.badRequest("invalid value for query parameter " + name + ": strconv.ParseBool: parsing "
                        + io.kubepekko.api.status.FieldError.quote(v.get()) + ": invalid syntax").exception();
            }
        }
        Optional<String> match = query.get("resourceVersionMatch");
        if (match.isPresent() && !List.of("", "Exact", "NotOlderThan").contains(match.get())) {
            throw ApiStatus.badRequest("resourceVersionMatch: Unsupported value: "
                    + io.kubepekko.api.status.FieldError.quote(match.get())
                    + ": supported values: \"Exact\", \"NotOlderThan\"").exception();
        }
    }
}
