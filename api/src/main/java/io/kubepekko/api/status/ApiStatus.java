package io.kubepekko.api.status;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A failure as Kubernetes reports it: the value behind every non-2xx response body ({@code kind:
 * Status}). Factories reproduce kube-apiserver's messages exactly, because clients print them
 * verbatim.
 */
public record ApiStatus(
        int code, String reason, String message, Details details, String listContinue) {

    /**
     * {@code Status.details}; {@code kind} is the plural resource except for Invalid, which uses
     * the Kind.
     */
    public record Details(
            String name,
            String group,
            String kind,
            String uid,
            List<StatusCause> causes,
            Integer retryAfterSeconds) {
        public static final Details EMPTY = new Details(null, null, null, null, List.of(), null);

        public Details {
            causes = causes == null ? List.of() : List.copyOf(causes);
        }
    }

    public ApiStatus {
        details = details == null ? Details.EMPTY : details;
    }

    public ApiStatus(int code, String reason, String message, Details details) {
        this(code, reason, message, details, null);
    }

    /**
     * The same Status with {@code metadata.continue} set: kube-apiserver offers a token to go on
     * (inconsistently) with an expired list.
     */
    public ApiStatus withListContinue(String token) {
        return new ApiStatus(code, reason, message, details, token);
    }

    public ApiException exception() {
        return new ApiException(this);
    }

    /**
     * This Status as the resource {@code served} reports it, when it names an object of {@code
     * stored} (details and the {@code resource "name"} of its message): kube-apiserver names the
     * resource a request addressed, so a write through events.k8s.io/v1 that its core/v1 storage
     * refuses says {@code events.events.k8s.io "x" ...}. Any other Status comes back as it is.
     */
    public ApiStatus requalified(GroupResource stored, GroupResource served) {
        if (stored.equals(served)
                || details.kind() == null
                || !details.kind().equals(stored.resource())
                || !(details.group() == null ? "" : details.group()).equals(stored.group())) {
            return this;
        }
        String name = details.name() == null ? "" : details.name();
        String named = " " + FieldError.quote(name);
        String text = message == null ? null : message.replace(stored + named, served + named);
        return new ApiStatus(
                code,
                reason,
                text,
                new Details(
                        details.name(),
                        served.group().isEmpty() ? null : served.group(),
                        served.resource(),
                        details.uid(),
                        details.causes(),
                        details.retryAfterSeconds()),
                listContinue);
    }

    private static Details resourceDetails(GroupResource gr, String name) {
        return new Details(
                name,
                gr.group().isEmpty() ? null : gr.group(),
                gr.resource(),
                null,
                List.of(),
                null);
    }

    public static ApiStatus badRequest(String message) {
        return new ApiStatus(400, Reason.BAD_REQUEST, message, null);
    }

    public static ApiStatus notFound(GroupResource gr, String name) {
        return new ApiStatus(
                404,
                Reason.NOT_FOUND,
                gr + " " + FieldError.quote(name) + " not found",
                resourceDetails(gr, name));
    }

    /** 404 for a path or kind the server does not serve. */
    public static ApiStatus pathNotFound() {
        return new ApiStatus(
                404, Reason.NOT_FOUND, "the server could not find the requested resource", null);
    }

    public static ApiStatus alreadyExists(GroupResource gr, String name) {
        return new ApiStatus(
                409,
                Reason.ALREADY_EXISTS,
                gr + " " + FieldError.quote(name) + " already exists",
                resourceDetails(gr, name));
    }

    public static ApiStatus conflict(GroupResource gr, String name, String why) {
        return new ApiStatus(
                409,
                Reason.CONFLICT,
                "Operation cannot be fulfilled on "
                        + gr
                        + " "
                        + FieldError.quote(name)
                        + ": "
                        + why,
                resourceDetails(gr, name));
    }

    /** The optimistic-concurrency conflict of a stale {@code metadata.resourceVersion}. */
    public static ApiStatus staleResourceVersion(GroupResource gr, String name) {
        return conflict(
                gr,
                name,
                "the object has been modified; please apply your changes to the latest version and try again");
    }

    /**
     * 422 Invalid. {@code kindGroup} may be empty for core; the message is {@code Kind[.group]
     * "name" is invalid: err} or {@code [err1, err2]} for several.
     */
    public static ApiStatus invalid(
            String kindGroup, String kind, String name, List<FieldError> errors) {
        String qualifiedKind =
                kindGroup == null || kindGroup.isEmpty() ? kind : kind + "." + kindGroup;
        Set<String> messages = new LinkedHashSet<>();
        for (FieldError e : errors) {
            messages.add(e.toString());
        }
        String message =
                qualifiedKind + " " + FieldError.quote(name == null ? "" : name) + " is invalid";
        if (messages.size() == 1) {
            message += ": " + messages.iterator().next();
        } else if (messages.size() > 1) {
            message += ": [" + String.join(", ", messages) + "]";
        }
        List<StatusCause> causes = errors.stream().map(FieldError::toCause).toList();
        return new ApiStatus(
                422,
                Reason.INVALID,
                message,
                new Details(
                        name,
                        kindGroup == null || kindGroup.isEmpty() ? null : kindGroup,
                        kind,
                        null,
                        causes,
                        null));
    }

    /** 422 without a kind or name: kubectl prints {@code The request is invalid: ...}. */
    public static ApiStatus invalidRequest(String message, List<FieldError> errors) {
        return new ApiStatus(
                422,
                Reason.INVALID,
                message,
                new Details(
                        null,
                        null,
                        null,
                        null,
                        errors.stream().map(FieldError::toCause).toList(),
                        null));
    }

    public static ApiStatus forbidden(GroupResource gr, String name, String why) {
        String subject =
                name == null || name.isEmpty() ? gr.toString() : gr + " " + FieldError.quote(name);
        return new ApiStatus(
                403,
                Reason.FORBIDDEN,
                subject + " is forbidden: " + why,
                resourceDetails(gr, name));
    }

    public static ApiStatus methodNotAllowed(String message) {
        return new ApiStatus(405, Reason.METHOD_NOT_ALLOWED, message, null);
    }

    public static ApiStatus notAcceptable(String message) {
        return new ApiStatus(406, Reason.NOT_ACCEPTABLE, message, null);
    }

    public static ApiStatus unsupportedMediaType(String message) {
        return new ApiStatus(415, Reason.UNSUPPORTED_MEDIA_TYPE, message, null);
    }

    public static ApiStatus requestEntityTooLarge(String message) {
        return new ApiStatus(413, Reason.REQUEST_ENTITY_TOO_LARGE, message, null);
    }

    public static ApiStatus expired(String message) {
        return new ApiStatus(410, Reason.EXPIRED, message, null);
    }

    public static ApiStatus tooManyRequests(String message, int retryAfterSeconds) {
        return new ApiStatus(
                429,
                Reason.TOO_MANY_REQUESTS,
                message,
                new Details(null, null, null, null, List.of(), retryAfterSeconds));
    }

    public static ApiStatus timeout(String message, int retryAfterSeconds) {
        return new ApiStatus(
                504,
                Reason.TIMEOUT,
                message,
                new Details(null, null, null, null, List.of(), retryAfterSeconds));
    }

    public static ApiStatus serviceUnavailable(String message) {
        return new ApiStatus(503, Reason.SERVICE_UNAVAILABLE, message, null);
    }

    /** 500; the message never carries a stack trace. */
    public static ApiStatus internal(String message) {
        return new ApiStatus(
                500,
                Reason.INTERNAL_ERROR,
                "Internal error occurred: " + message,
                new Details(
                        null,
                        null,
                        null,
                        null,
                        List.of(new StatusCause(null, message, null)),
                        null));
    }

    /** The {@code Status} object as clients read it. */
    public ObjectNode toJson() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode n = f.objectNode();
        n.put("kind", "Status");
        n.put("apiVersion", "v1");
        ObjectNode metadata = n.putObject("metadata");
        if (listContinue != null) {
            metadata.put("continue", listContinue);
        }
        n.put("status", code >= 200 && code < 300 ? "Success" : "Failure");
        if (message != null) {
            n.put("message", message);
        }
        if (reason != null) {
            n.put("reason", reason);
        }
        ObjectNode d = n.putObject("details");
        // Every field of Kubernetes' StatusDetails is omitempty.
        putIfNotEmpty(d, "name", details.name());
        putIfNotEmpty(d, "group", details.group());
        putIfNotEmpty(d, "kind", details.kind());
        putIfNotEmpty(d, "uid", details.uid());
        if (!details.causes().isEmpty()) {
            ArrayNode causes = d.putArray("causes");
            for (StatusCause c : details.causes()) {
                ObjectNode cn = causes.addObject();
                if (c.reason() != null) {
                    cn.put("reason", c.reason());
                }
                if (c.message() != null) {
                    cn.put("message", c.message());
                }
                if (c.field() != null) {
                    cn.put("field", c.field());
                }
            }
        }
        if (details.retryAfterSeconds() != null) {
            d.put("retryAfterSeconds", details.retryAfterSeconds());
        }
        n.put("code", code);
        return n;
    }

    private static void putIfNotEmpty(ObjectNode n, String field, String value) {
        if (value != null && !value.isEmpty()) {
            n.put(field, value);
        }
    }

    /** A {@code Status} with {@code status: Success}, as returned by some deletes. */
    public static ObjectNode success(GroupResource gr, String name, String uid) {
        ObjectNode n =
                new ApiStatus(
                                200,
                                null,
                                null,
                                new Details(
                                        name,
                                        gr.group().isEmpty() ? null : gr.group(),
                                        gr.resource(),
                                        uid,
                                        List.of(),
                                        null))
                        .toJson();
        return n;
    }
}
