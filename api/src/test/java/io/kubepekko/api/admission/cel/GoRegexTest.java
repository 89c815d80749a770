package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GoRegexTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "a",
                "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$",
                "(a{10}){100}",
                "((a{2}){2}){250}",
                "(a{1000})(b{1000})",
                "(a{0}){1000}",
                "a{2,}",
                "[]a]",
                "[^]a]",
                "[[:alpha:]\\]]+",
                "\\pL\\p{Greek}\\x41\\x{263a}",
                "\\Q{1000}{1000}\\E",
                "(?i)a",
                "(?i:a)|(?P<n>b)|(?<m>c)",
                "a{,5}",
                "x{",
            })
    void compilesWhatGoCompiles(String pattern) {
        assertTrue(GoRegex.compiles(pattern), pattern);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[",
                "(",
                ")",
                "a**",
                "*",
                "{2}",
                "\\",
                "\\8",
                "a{1001}",
                "a{3,2}",
                "(a{100}){100}",
                "((a{10}){10}){11}",
                "(?:a{1000}){2}",
                "(a{2,}){501}",
                "\\p",
                "[a",
            })
    void refusesWhatGoRefuses(String pattern) {
        assertFalse(GoRegex.compiles(pattern), pattern);
    }

    @ParameterizedTest
    @ValueSource(ints = {1_000, 50_000})
    void refusesGroupsNestedPastGosHeight(int depth) {
        assertFalse(GoRegex.compiles("(".repeat(depth) + "a" + ")".repeat(depth)));
    }

    /** Go's height limit is 1,000: 999 groups around a literal; RE2J's recursion takes them. */
    @Test
    void compilesGroupsNestedUpToGosHeight() {
        assertTrue(GoRegex.compiles("(".repeat(999) + "a" + ")".repeat(999)));
    }

    @Test
    void refusesAProgramPastTheBound() {
        assertTrue(GoRegex.compiles("(?:a{1000})".repeat(90)));
        assertFalse(GoRegex.compiles("(?:a{1000})".repeat(120)));
    }
}
