package io.kubepekko.agent.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cases from kube's third_party/forked/golang/expansion expand_test.go semantics. */
class ExpansionTest {
    private static final Map<String, String> VARS =
            Map.of("VAR_A", "A", "VAR_B", "B", "VAR_EMPTY", "");

    private static String expand(String s) {
        return Expansion.expand(s, Expansion.mappingFor(VARS));
    }

    @Test
    void definedReferencesAreReplaced() {
        assertEquals("A", expand("$(VAR_A)"));
        assertEquals("___A_B___", expand("___$(VAR_A)_$(VAR_B)___"));
        assertEquals("", expand("$(VAR_EMPTY)"));
    }

    @Test
    void undefinedReferencesStayAsWritten() {
        assertEquals("$(VAR_NOPE)", expand("$(VAR_NOPE)"));
        assertEquals("$()", expand("$()"));
    }

    @Test
    void doubleDollarEscapes() {
        assertEquals("$(VAR_A)", expand("$$(VAR_A)"));
        assertEquals("$A", expand("$$$(VAR_A)"));
        assertEquals("$$", expand("$$$$"));
    }

    @Test
    void incompleteOrBareDollarIsLiteral() {
        assertEquals("$(VAR_A", expand("$(VAR_A"));
        assertEquals("foo$", expand("foo$"));
        assertEquals("$x", expand("$x"));
        assertEquals("$(", expand("$("));
        assertEquals("A$(B", expand("$(VAR_A)$(B"));
    }
}
