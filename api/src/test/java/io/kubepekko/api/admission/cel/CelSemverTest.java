package io.kubepekko.api.admission.cel;

import static io.kubepekko.api.admission.cel.CelEval.assertError;
import static io.kubepekko.api.admission.cel.CelEval.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's semverlib.go examples (its doc comment), as our expressions. */
class CelSemverTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "isSemver('1.0.0')",
                "isSemver('0.1.0-alpha.1')",
                "!isSemver('hello')",
                "!isSemver('v1.0')",
                "!isSemver('200K')",
                "!isSemver('01.1.1')",
                "isSemver('v1.0', true)",
                "isSemver('1.0', true)",
                "isSemver('01.01.01', true)",
                "!isSemver('1.0-alpha', true)",
                "semver('v1.0.0', true) == semver('1.0.0')",
                "semver('1.0', true) == semver('1.0.0')",
                "semver('01.01.01', true) == semver('1.1.1')",
                "semver('1.2.3').major() == 1",
                "semver('1.2.3').minor() == 2",
                "semver('1.2.3').patch() == 3",
                "semver('1.2.3').compareTo(semver('1.2.3')) == 0",
                "semver('1.2.3').compareTo(semver('2.0.0')) == -1",
                "semver('1.2.3').compareTo(semver('0.1.2')) == 1",
                "semver('1.2.3').isGreaterThan(semver('1.2.2'))",
                "semver('1.2.3').isLessThan(semver('1.10.0'))",
                "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
                "semver('1.0.0-alpha').isLessThan(semver('1.0.0-alpha.1'))",
                "semver('1.0.0-alpha.1').isLessThan(semver('1.0.0-alpha.beta'))",
                "semver('1.0.0-2').isLessThan(semver('1.0.0-11'))",
                "semver('1.0.0+build.1') == semver('1.0.0+build.2')",
                // The quantity library's functions of the same names still work beside these.
                "quantity('2Gi').isGreaterThan(quantity('1Gi'))",
            })
    void kubesExamplesHold(String expression) throws Exception {
        assertTrue(expression);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "semver('200K') == semver('1.0.0')|No Major.Minor.Patch elements found",
                "semver('Three') == semver('1.0.0')|No Major.Minor.Patch elements found",
                "semver('') == semver('1.0.0')|Version string empty",
                "semver('01.0.0') == semver('1.0.0')|Major number must not contain leading zeroes"
                        + " \"01\"",
                "semver('1.x.0') == semver('1.0.0')|Invalid character(s) found in minor number"
                        + " \"x\"",
                "semver('1.0.0-') == semver('1.0.0')|Prerelease is empty",
                "semver('1.0-a', true) == semver('1.0.0')|short version cannot contain"
                        + " PreRelease/Build meta data",
            })
    void badVersionsFailWithTheParsersWords(String expression, String message) {
        assertError(expression, message);
    }
}
