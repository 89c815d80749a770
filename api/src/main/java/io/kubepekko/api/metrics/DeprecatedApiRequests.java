package io.kubepekko.api.metrics;

import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The data of kube-apiserver's gauge {@value #NAME}: one series per deprecated group, version,
 * resource and subresource that was requested since the server started, set to 1, labelled with the
 * release the version is removed in. A request records its labels once the server has routed it to
 * a deprecated version; a metrics endpoint exports {@link #series()} as it is.
 *
 * <p>Safe for concurrent use: requests record from any thread.
 */
public final class DeprecatedApiRequests {

    /** The gauge's name. */
    public static final String NAME = "apiserver_requested_deprecated_apis";

    /** Its help text, as kube-apiserver registers it (STABLE). */
    public static final String HELP =
            "Gauge of deprecated APIs that have been requested, broken out by API group, version,"
                    + " resource, subresource, and removed_release.";

    /** The label names, in kube's order. */
    public static final List<String> LABELS =
            List.of("group", "version", "resource", "subresource", "removed_release");

    /**
     * One series: the labels of a requested deprecated API. Empty strings stand for the core group,
     * no subresource and no removal release, as kube's label values do.
     */
    public record Series(
            String group,
            String version,
            String resource,
            String subresource,
            String removedRelease) {
        public Series {
            Objects.requireNonNull(group, "group");
            Objects.requireNonNull(version, "version");
            Objects.requireNonNull(resource, "resource");
            subresource = subresource == null ? "" : subresource;
            removedRelease = removedRelease == null ? "" : removedRelease;
        }

        /** The label values in {@link #LABELS}' order. */
        public List<String> labelValues() {
            return List.of(group, version, resource, subresource, removedRelease);
        }

        /** The gauge's value for the series: kube sets it to 1. */
        public double value() {
            return 1;
        }
    }

    private final Set<Series> requested = ConcurrentHashMap.newKeySet();

    /** A request to a deprecated API was served. */
    public void requested(Series series) {
        requested.add(series);
    }

    /** Every series so far, in no particular order. */
    public Set<Series> series() {
        return Set.copyOf(requested);
    }
}
