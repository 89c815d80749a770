package io.kubepekko.api.definition;

import io.kubepekko.api.GroupVersionKind;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where one served version of a kind is in its life, as kube's {@code prerelease-lifecycle-gen}
 * generates it from a type's {@code +k8s:prerelease-lifecycle-gen} tags: its stability track, the
 * release it was introduced in, the release it is deprecated in, the release it stops being served
 * in, and what replaces it. Untagged prerelease releases are defaulted as the generator does: a
 * version is deprecated three minors after its introduction and removed three minors after its
 * deprecation. GA versions carry no tags and are never deprecated.
 *
 * <p>Against a release (the server emulates {@link Release#EMULATED}) this tells whether the
 * version is deprecated (kube's deprecation filter: a {@code Warning}, audit annotations, the
 * {@code apiserver_requested_deprecated_apis} gauge), removed (never served), and whether it is
 * served when {@code --runtime-config} says nothing about it.
 *
 * @param track the stability track the version's name puts it in
 * @param introduced the release the version was introduced in; null for GA versions and versions
 *     without tags (custom resources), which are never deprecated
 * @param deprecated the release it is deprecated in, null when never
 * @param removed the release it is no longer served in, null when never
 * @param replacement the kind to use instead, null when the type names none (the warning then ends
 *     after the removal release)
 */
public record VersionLifecycle(
        Track track,
        Release introduced,
        Release deprecated,
        Release removed,
        GroupVersionKind replacement) {

    /**
     * Beta versions introduced in this release or later are off by default (KEP-3136, "beta APIs
     * off by default", from 1.24 on).
     */
    static final Release BETA_OFF_BY_DEFAULT_FROM = new Release(1, 24);

    /** prerelease-lifecycle-gen's default gap between introduction, deprecation and removal. */
    static final int DEFAULT_MINORS = 3;

    /** A version's stability track, from the form of its name, as {@code --runtime-config}'s. */
    public enum Track {
        GA("api/ga", Pattern.compile("^v\\d+$")),
        BETA("api/beta", Pattern.compile("^v\\d+beta\\d+$")),
        ALPHA("api/alpha", Pattern.compile("^v\\d+alpha\\d+$")),
        /** A version name in none of the three forms (a custom resource's {@code v1test}). */
        OTHER(null, Pattern.compile(".*"));

        private final String runtimeConfigKey;
        private final Pattern name;

        Track(String runtimeConfigKey, Pattern name) {
            this.runtimeConfigKey = runtimeConfigKey;
            this.name = name;
        }

        /** The {@code --runtime-config} key that addresses the track ({@code api/beta}). */
        public String runtimeConfigKey() {
            return runtimeConfigKey;
        }

        /** The track a version's name puts it in. */
        public static Track of(String version) {
            for (Track t : values()) {
                if (t.name.matcher(version).matches()) {
                    return t;
                }
            }
            return OTHER;
        }
    }

    public VersionLifecycle {
        Objects.requireNonNull(track, "track");
        if (introduced == null && (deprecated != null || removed != null)) {
            throw new IllegalArgumentException(
                    "a deprecated or removed version names its introduction");
        }
        if (deprecated != null && deprecated.compareTo(introduced) < 0) {
            throw new IllegalArgumentException(
                    "deprecated in " + deprecated + " before its introduction");
        }
        if (removed != null && (deprecated == null || removed.compareTo(deprecated) < 0)) {
            throw new IllegalArgumentException("removed in " + removed + " before its deprecation");
        }
    }

    /**
     * A version without lifecycle tags: a GA version, or a custom resource's. Served by default,
     * never deprecated.
     */
    public static VersionLifecycle untagged(String version) {
        return new VersionLifecycle(Track.of(version), null, null, null, null);
    }

    /**
     * A prerelease version tagged only with its introduction: deprecated three minors later,
     * removed three after that, with no replacement.
     */
    public static VersionLifecycle introduced(String version, String release) {
        return tagged(version, release, null, null, null);
    }

    /**
     * A version with its {@code introduced}, {@code deprecated}, {@code removed} and {@code
     * replacement} tags (null where the type has none), defaulted as prerelease-lifecycle-gen
     * defaults them.
     */
    public static VersionLifecycle tagged(
            String version,
            String introduced,
            String deprecated,
            String removed,
            GroupVersionKind replacement) {
        Release in = Release.of(introduced);
        Release dep = deprecated == null ? in.plusMinors(DEFAULT_MINORS) : Release.of(deprecated);
        Release out = removed == null ? dep.plusMinors(DEFAULT_MINORS) : Release.of(removed);
        return new VersionLifecycle(Track.of(version), in, dep, out, replacement);
    }

    /** This lifecycle with the type's {@code replacement} tag. */
    public VersionLifecycle replacedBy(GroupVersionKind kind) {
        return new VersionLifecycle(track, introduced, deprecated, removed, kind);
    }

    /** Whether the version is deprecated in {@code release} (kube's {@code IsDeprecated}). */
    public boolean deprecatedIn(Release release) {
        return deprecated != null && deprecated.atOrBefore(release);
    }

    /**
     * Whether the version is no longer served in {@code release}: removed in it or earlier, or not
     * yet introduced (kube's {@code resourceExpirationEvaluator}).
     */
    public boolean unavailableIn(Release release) {
        return (removed != null && removed.atOrBefore(release))
                || (introduced != null && release.compareTo(introduced) < 0);
    }

    /**
     * Whether the version is served when {@code --runtime-config} says nothing about it: GA and
     * untagged versions are; alpha versions never; beta versions only if they were introduced
     * before betas became off by default.
     */
    public boolean enabledByDefault() {
        return switch (track) {
            case GA, OTHER -> true;
            case ALPHA -> introduced == null;
            case BETA -> introduced == null || introduced.compareTo(BETA_OFF_BY_DEFAULT_FROM) < 0;
        };
    }

    /**
     * kube's deprecation warning for a request to {@code served} ({@code
     * deprecation.WarningMessage}), which names the removal release and the replacement when the
     * type has them.
     */
    public String warning(GroupVersionKind served) {
        StringBuilder s =
                new StringBuilder(served.apiVersion())
                        .append(' ')
                        .append(served.kind())
                        .append(" is deprecated in v")
                        .append(deprecated);
        s.append('+');
        if (removed != null) {
            s.append(", unavailable in v").append(removed).append('+');
        }
        if (replacement != null) {
            s.append("; use ")
                    .append(replacement.apiVersion())
                    .append(' ')
                    .append(replacement.kind());
        }
        return s.toString();
    }
}
