package io.kubepekko.agent.api;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Query parameters of a list or watch.
 *
 * @param labelSelector {@code labelSelector}, empty for none
 * @param fieldSelector {@code fieldSelector}, empty for none
 * @param resourceVersion {@code resourceVersion}: a list's consistency or where a watch starts;
 *     empty: most recent
 * @param allowWatchBookmarks ask for BOOKMARK events on a watch
 * @param timeoutSeconds how long the server keeps a watch open before ending it normally
 */
public record ListOptions(
        String labelSelector,
        String fieldSelector,
        String resourceVersion,
        boolean allowWatchBookmarks,
        Optional<Integer> timeoutSeconds) {

    public static final ListOptions ALL = new ListOptions("", "", "", false, Optional.empty());

    public ListOptions withFieldSelector(String s) {
        return new ListOptions(
                labelSelector, s, resourceVersion, allowWatchBookmarks, timeoutSeconds);
    }

    public ListOptions withLabelSelector(String s) {
        return new ListOptions(
                s, fieldSelector, resourceVersion, allowWatchBookmarks, timeoutSeconds);
    }

    public ListOptions withResourceVersion(String rv) {
        return new ListOptions(
                labelSelector, fieldSelector, rv, allowWatchBookmarks, timeoutSeconds);
    }

    public ListOptions withBookmarks(boolean b) {
        return new ListOptions(labelSelector, fieldSelector, resourceVersion, b, timeoutSeconds);
    }

    public ListOptions withTimeoutSeconds(int seconds) {
        return new ListOptions(
                labelSelector,
                fieldSelector,
                resourceVersion,
                allowWatchBookmarks,
                Optional.of(seconds));
    }

    /** The query string (without {@code ?}); {@code watch=true} first for a watch. */
    String query(boolean watch) {
        List<String> q = new ArrayList<>();
        if (watch) {
            q.add("watch=true");
        }
        if (!labelSelector.isEmpty()) {
            q.add("labelSelector=" + Resource.encode(labelSelector));
        }
        if (!fieldSelector.isEmpty()) {
            q.add("fieldSelector=" + Resource.encode(fieldSelector));
        }
        if (!resourceVersion.isEmpty()) {
            q.add("resourceVersion=" + Resource.encode(resourceVersion));
        }
        if (watch && allowWatchBookmarks) {
            q.add("allowWatchBookmarks=true");
        }
        timeoutSeconds.ifPresent(t -> q.add("timeoutSeconds=" + t));
        return String.join("&", q);
    }
}
