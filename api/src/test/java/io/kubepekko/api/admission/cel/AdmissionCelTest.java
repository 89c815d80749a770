package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdmissionCelTest {

    @Test
    void stringsAreCelGosVersionTwoWithoutReverse() throws Exception {
        CelEval.assertTrue("'a,b'.split(',').join('-') == 'a-b' && strings.quote('x') == '\"x\"'");
        assertTrue(
                CelEval.compileError("'abc'.reverse() == 'cba'")
                        .contains("found no matching overload for 'reverse'"));
    }
}
