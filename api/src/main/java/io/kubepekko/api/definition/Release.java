package io.kubepekko.api.definition;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes minor release ({@code 1.35}), as {@code +k8s:prerelease-lifecycle-gen} tags and the
 * deprecation filter compare them: by major, then minor, nothing finer.
 */
public record Release(int major, int minor) implements Comparable<Release> {

    /** The release this server emulates: what it serves, deprecates and refuses is 1.35's. */
    public static final Release EMULATED = new Release(1, 35);

    private static final Pattern TEXT = Pattern.compile("^(\\d+)\\.(\\d+)$");

    public Release {
        if (major < 0 || minor < 0) {
            throw new IllegalArgumentException("no release " + major + "." + minor);
        }
    }

    /** {@code 1.31}. */
    public static Release of(String text) {
        Matcher m = TEXT.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a release (major.minor): " + text);
        }
        return new Release(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
    }

    /** The release {@code minors} minor releases later (prerelease-lifecycle-gen's defaulting). */
    public Release plusMinors(int minors) {
        return new Release(major, minor + minors);
    }

    /** Whether this release is {@code other} or an earlier one. */
    public boolean atOrBefore(Release other) {
        return compareTo(other) <= 0;
    }

    @Override
    public int compareTo(Release o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    /** {@code 1.35}, as the {@code k8s.io/removed-release} audit annotation writes it. */
    @Override
    public String toString() {
        return major + "." + minor;
    }
}
