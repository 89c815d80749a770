package io.kubepekko.agent.api;

import java.util.Optional;

/** Receives a watch's events, one at a time in stream order, on the HTTP client's threads. */
public interface WatchListener {

    void onEvent(WatchEvent event);

    /**
     * The stream ended: normally (the server's timeout; {@code error} empty) or with an error
     * (refused, reset, or a non-200 answer). Not called after {@link Watch#stop()}.
     */
    void onClosed(Optional<ApiError> error);
}
