package io.kubepekko.api.watch;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.status.Reason;
import io.kubepekko.api.status.StatusCause;
import java.util.List;

/**
 * The Statuses of reads that ask for history the server no longer has, or does not have yet, and of
 * malformed read parameters. Texts are kube-apiserver's (storage and cacher), because informers and
 * kubectl branch on the reason and print the message.
 */
public final class ReadErrors {
    private ReadErrors() {}

    /**
     * What the cacher asks clients to wait before retrying a read at a version it has not reached.
     */
    public static final int TOO_LARGE_RETRY_AFTER_SECONDS = 1;

    /** 410 Expired: a continue token whose snapshot has left the retained history. */
    public static ApiStatus continueExpired() {
        return ApiStatus.expired(
                "The provided continue parameter is too old to display a consistent list result. "
                        + "You can start a new list without the continue parameter.");
    }

    /**
     * 410 Expired for a continue token whose snapshot is gone, offering {@code latestToken} (a
     * token at the latest version, from the same key) to go on with an inconsistent list, as
     * kube-apiserver does.
     */
    public static ApiStatus continueExpired(String latestToken) {
        return ApiStatus.expired(
                        "The provided continue parameter is too old to display a consistent list result. "
                                + "You can start a new list without the continue parameter, or use the continue token in this "
                                + "response to retrieve the remainder of the results. Continuing with the provided token results in "
                                + "an inconsistent list - objects that were created, modified, or deleted between the time the "
                                + "first chunk was returned and now may show up in the list.")
                .withListContinue(latestToken);
    }

    /**
     * 410 Expired for a watch (or exact read) below the oldest retained version; informers relist
     * on it. {@code oldest} is the newest version the server can no longer start after.
     */
    public static ApiStatus tooOldResourceVersion(long requested, long oldest) {
        return ApiStatus.expired("too old resource version: " + requested + " (" + oldest + ")");
    }

    /** 410 Expired: an exact list at a version that has been compacted away. */
    public static ApiStatus listResourceVersionTooOld() {
        return ApiStatus.expired("The resourceVersion for the provided list is too old.");
    }

    /**
     * 504 Timeout for a read at a version newer than the server has seen, after it waited for it.
     * Clients recognise it by the {@code ResourceVersionTooLarge} cause and retry after the delay.
     */
    public static ApiStatus tooLargeResourceVersion(long requested, long current) {
        return new ApiStatus(
                504,
                Reason.TIMEOUT,
                "Timeout: Too large resource version: " + requested + ", current: " + current,
                new ApiStatus.Details(
                        null,
                        null,
                        null,
                        null,
                        List.of(
                                new StatusCause(
                                        "ResourceVersionTooLarge",
                                        "Too large resource version",
                                        null)),
                        TOO_LARGE_RETRY_AFTER_SECONDS));
    }

    /**
     * 400 for a continue token that does not decode; {@code why} starts with {@code continue key is
     * not valid}.
     */
    static ApiStatus invalidContinue(String why) {
        return ApiStatus.badRequest("invalid continue token: " + why);
    }

    /**
     * 400: a continue token already fixes the version, so only an empty or "0" one may accompany
     * it.
     */
    static ApiStatus resourceVersionWithContinue() {
        return ApiStatus.badRequest(
                "specifying resource version is not allowed when using continue");
    }

    /** 400 for a resourceVersion that is not an unsigned decimal. */
    static ApiStatus invalidResourceVersion(String value, String parseError) {
        return ApiStatus.badRequest(
                "invalid resource version: "
                        + FieldError.invalid("resourceVersion", value, parseError));
    }
}
