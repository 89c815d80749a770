package io.kubepekko.agent.cri;

import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.kubepekko.api.status.Failures;
import java.util.concurrent.CompletionException;

/**
 * A CRI call that failed, as a value: which call, what kind of failure, and the runtime's own words
 * (containerd's messages are what the kubelet shows in events, e.g. {@code failed to pull and
 * unpack image ...}).
 *
 * @param code what the caller acts on
 * @param method the CRI method, e.g. {@code CreateContainer}
 * @param message the runtime's message (or the transport's, when the runtime was not reached)
 */
public record CriError(Code code, String method, String message) {

    /** The gRPC status codes a CRI caller tells apart; every other code is {@link #UNKNOWN}. */
    public enum Code {
        /** The sandbox, container or image does not exist (containerd: {@code ...: not found}). */
        NOT_FOUND,
        ALREADY_EXISTS,
        INVALID_ARGUMENT,
        FAILED_PRECONDITION,
        /**
         * The runtime could not be reached or said it is not serving: the node's runtime is down.
         */
        UNAVAILABLE,
        /** The call's deadline passed (for ExecSync: the command's timeout). */
        DEADLINE_EXCEEDED,
        /** The runtime does not implement the call (containerd 1.6: GetContainerEvents). */
        UNIMPLEMENTED,
        /** The call was cancelled, e.g. because the client was closed. */
        CANCELLED,
        /** The runtime refused for its own reasons (containerd answers most failures this way). */
        UNKNOWN
    }

    /**
     * The error of a failed CRI stage: unwraps {@link CompletionException} and {@link
     * CriException}.
     */
    public static CriError of(Throwable failure) {
        Throwable t = Failures.unwrap(failure);
        if (t instanceof CriException cri) {
            return cri.error();
        }
        return new CriError(Code.UNKNOWN, "", String.valueOf(t));
    }

    static CriError fromGrpc(String method, Throwable t) {
        Status status;
        if (t instanceof StatusRuntimeException e) {
            status = e.getStatus();
        } else if (t instanceof StatusException e) {
            status = e.getStatus();
        } else {
            status = Status.fromThrowable(t);
        }
        return new CriError(codeOf(status.getCode()), method, messageOf(status));
    }

    private static Code codeOf(Status.Code code) {
        return switch (code) {
            case NOT_FOUND -> Code.NOT_FOUND;
            case ALREADY_EXISTS -> Code.ALREADY_EXISTS;
            case INVALID_ARGUMENT -> Code.INVALID_ARGUMENT;
            case FAILED_PRECONDITION -> Code.FAILED_PRECONDITION;
            case UNAVAILABLE -> Code.UNAVAILABLE;
            case DEADLINE_EXCEEDED -> Code.DEADLINE_EXCEEDED;
            case UNIMPLEMENTED -> Code.UNIMPLEMENTED;
            case CANCELLED -> Code.CANCELLED;
            default -> Code.UNKNOWN;
        };
    }

    // A transport failure's description alone ("io exception") says nothing: add its cause (e.g.
    // connection refused).
    private static String messageOf(Status status) {
        String description =
                status.getDescription() == null ? status.getCode().name() : status.getDescription();
        Throwable cause = status.getCause();
        if (cause != null
                && cause.getMessage() != null
                && !description.contains(cause.getMessage())) {
            return description + ": " + cause.getMessage();
        }
        return description;
    }

    public boolean is(Code expected) {
        return code == expected;
    }

    @Override
    public String toString() {
        return method + ": " + code + ": " + message;
    }
}
