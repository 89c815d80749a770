package io.kubepekko.api.definition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.definition.VersionLifecycle.Track;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lifecycles as prerelease-lifecycle-gen makes them from a type's tags, and what they mean against
 * the release this server emulates: deprecation, removal, default enablement, the warning text.
 */
class VersionLifecycleTest {

    private static final Release V1_35 = Release.EMULATED;

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
        "v1, GA",
        "v2, GA",
        "v1beta1, BETA",
        "v2beta3, BETA",
        "v1alpha1, ALPHA",
        "v1alpha, OTHER",
        "v1test, OTHER",
        "beta1, OTHER"
    })
    void aVersionsTrackIsTheFormOfItsName(String version, Track track) {
        assertEquals(track, Track.of(version));
    }

    @Test
    void untaggedReleasesDefaultThreeMinorsApart() {
        VersionLifecycle l = VersionLifecycle.introduced("v1beta1", "1.31");
        assertEquals(Track.BETA, l.track());
        assertEquals(Release.of("1.31"), l.introduced());
        assertEquals(Release.of("1.34"), l.deprecated());
        assertEquals(Release.of("1.37"), l.removed());
        assertNull(l.replacement());
    }

    @Test
    void aDeprecationTagMovesTheDefaultRemoval() {
        VersionLifecycle l = VersionLifecycle.tagged("v1beta1", "1.14", "1.19", null, null);
        assertEquals(Release.of("1.22"), l.removed());
        VersionLifecycle explicit = VersionLifecycle.tagged("v1beta1", "1.8", "1.21", "1.25", null);
        assertEquals(Release.of("1.25"), explicit.removed());
    }

    @Test
    void deprecatedFromItsDeprecationReleaseOn() {
        VersionLifecycle l = VersionLifecycle.introduced("v1beta1", "1.31");
        assertFalse(l.deprecatedIn(Release.of("1.33")));
        assertTrue(l.deprecatedIn(Release.of("1.34")));
        assertTrue(l.deprecatedIn(V1_35));
        assertFalse(VersionLifecycle.introduced("v1beta1", "1.33").deprecatedIn(V1_35));
        assertFalse(VersionLifecycle.untagged("v1").deprecatedIn(V1_35));
    }

    @Test
    void unavailableFromItsRemovalReleaseOnAndBeforeItsIntroduction() {
        VersionLifecycle l = VersionLifecycle.introduced("v1beta1", "1.31");
        assertFalse(l.unavailableIn(Release.of("1.36")));
        assertTrue(l.unavailableIn(Release.of("1.37")));
        assertTrue(l.unavailableIn(Release.of("1.30")), "not yet introduced");
        assertTrue(
                VersionLifecycle.tagged("v1beta1", "1.8", "1.21", "1.25", null)
                        .unavailableIn(V1_35));
        assertTrue(VersionLifecycle.introduced("v1beta1", "1.29").unavailableIn(V1_35));
        assertFalse(VersionLifecycle.introduced("v1beta1", "1.30").unavailableIn(V1_35));
        assertFalse(VersionLifecycle.untagged("v1").unavailableIn(V1_35));
    }

    @ParameterizedTest(name = "{0} introduced in {1}: on by default {2}")
    @CsvSource({
        "v1beta1, 1.23, true",
        "v1beta1, 1.24, false",
        "v1beta1, 1.31, false",
        "v1alpha1, 1.20, false",
        "v1alpha1, 1.33, false"
    })
    void newBetasAndEveryAlphaAreOffByDefault(String version, String introduced, boolean on) {
        assertEquals(on, VersionLifecycle.introduced(version, introduced).enabledByDefault());
    }

    @Test
    void gaAndUntaggedVersionsAreOnByDefault() {
        assertTrue(VersionLifecycle.untagged("v1").enabledByDefault());
        assertTrue(VersionLifecycle.untagged("v1beta1").enabledByDefault(), "a custom resource");
    }

    @Test
    void theWarningIsKubesDeprecationFiltersText() {
        GroupVersionKind served = new GroupVersionKind("networking.k8s.io", "v1beta1", "IPAddress");
        assertEquals(
                "networking.k8s.io/v1beta1 IPAddress is deprecated in v1.34+, unavailable in v1.37+",
                VersionLifecycle.introduced("v1beta1", "1.31").warning(served));
        assertEquals(
                "batch/v1beta1 CronJob is deprecated in v1.21+, unavailable in v1.25+; use batch/v1"
                        + " CronJob",
                VersionLifecycle.tagged(
                                "v1beta1",
                                "1.8",
                                "1.21",
                                "1.25",
                                new GroupVersionKind("batch", "v1", "CronJob"))
                        .warning(new GroupVersionKind("batch", "v1beta1", "CronJob")));
    }

    @Test
    void releasesCompareByMajorThenMinor() {
        assertTrue(Release.of("1.9").compareTo(Release.of("1.10")) < 0);
        assertTrue(Release.of("1.35").atOrBefore(V1_35));
        assertEquals("1.37", Release.of("1.34").plusMinors(3).toString());
        assertThrows(IllegalArgumentException.class, () -> Release.of("v1.35"));
    }

    @Test
    void aRemovalBeforeItsDeprecationIsRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> VersionLifecycle.tagged("v1beta1", "1.20", "1.22", "1.21", null));
    }
}
