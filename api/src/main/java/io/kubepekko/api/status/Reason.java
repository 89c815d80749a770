package io.kubepekko.api.status;

/** The {@code reason} strings of Kubernetes' {@code metav1.StatusReason}. */
public final class Reason {
    private Reason() {}

    public static final String BAD_REQUEST = "BadRequest";
    public static final String UNAUTHORIZED = "Unauthorized";
    public static final String FORBIDDEN = "Forbidden";
    public static final String NOT_FOUND = "NotFound";
    public static final String ALREADY_EXISTS = "AlreadyExists";
    public static final String CONFLICT = "Conflict";
    public static final String GONE = "Gone";
    public static final String EXPIRED = "Expired";
    public static final String INVALID = "Invalid";
    public static final String METHOD_NOT_ALLOWED = "MethodNotAllowed";
    public static final String NOT_ACCEPTABLE = "NotAcceptable";
    public static final String UNSUPPORTED_MEDIA_TYPE = "UnsupportedMediaType";
    public static final String REQUEST_ENTITY_TOO_LARGE = "RequestEntityTooLarge";
    public static final String TOO_MANY_REQUESTS = "TooManyRequests";
    public static final String INTERNAL_ERROR = "InternalError";
    public static final String SERVICE_UNAVAILABLE = "ServiceUnavailable";
    public static final String TIMEOUT = "Timeout";
}
