package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelEvaluationException;
import java.util.Map;

/** Evaluates a closed bool expression in the admission environment, for the libraries' tests. */
final class CelEval {

    private CelEval() {}

    /** The expression's value; it must compile. */
    static Object eval(String expression) throws CelEvaluationException {
        AdmissionCel.Compiled compiled = AdmissionCel.get().compile(expression);
        if (compiled instanceof AdmissionCel.Invalid invalid) {
            throw new AssertionError(expression + ": " + invalid.detail());
        }
        return ((AdmissionCel.Program) compiled).eval(Map.of());
    }

    /** The value of a closed string expression; it must compile. */
    static String evalString(String expression) throws CelEvaluationException {
        AdmissionCel.Compiled compiled = AdmissionCel.get().compile(expression, SimpleType.STRING);
        if (compiled instanceof AdmissionCel.Invalid invalid) {
            throw new AssertionError(expression + ": " + invalid.detail());
        }
        return (String) ((AdmissionCel.Program) compiled).eval(Map.of());
    }

    static void assertTrue(String expression) throws CelEvaluationException {
        assertEquals(true, eval(expression), expression);
    }

    static void assertFalse(String expression) throws CelEvaluationException {
        assertEquals(false, eval(expression), expression);
    }

    /**
     * The expression fails when evaluated, with kube's words (cel-java's position prefix aside).
     */
    static void assertError(String expression, String message) {
        CelEvaluationException e =
                assertThrows(CelEvaluationException.class, () -> eval(expression), expression);
        assertEquals(
                message,
                e.getMessage().replaceFirst("^evaluation error( at [^:]*:\\d+)?: ", ""),
                expression);
    }

    /** The expression does not compile: the checker's detail. */
    static String compileError(String expression) {
        return assertInstanceOf(AdmissionCel.Invalid.class, AdmissionCel.get().compile(expression))
                .detail();
    }
}
