package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * kube's compile-time literal checks (cel-go's AST validators in kube's base environment since
 * 1.29): duration, timestamp and regex literals that would fail, and mixed-type list and map
 * literals, fail compiling with cel-go's message at the literal's position.
 */
class CelLiteralChecksTest {

    /** kube's field error detail for the expression: the compiler's error display. */
    private static String error(String expression, int column, String message) {
        return "compilation failed: ERROR: <input>:1:"
                + column
                + ": "
                + message
                + "\n | "
                + expression
                + "\n | "
                + ".".repeat(column - 1)
                + "^";
    }

    private static void assertCompiles(String expression) {
        assertInstanceOf(
                AdmissionCel.Program.class, AdmissionCel.get().compile(expression), expression);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "duration('1s') > duration('0s')",
                "duration('1h30m') == duration('90m')",
                "duration('-1.5s') < duration('0s')",
                "duration(string(1) + 'x') > duration('1s')",
                "timestamp('2023-01-01T00:00:00Z') < timestamp('2024-06-01T10:00:00.5+02:00')",
                "timestamp(0) < timestamp(1)",
                "timestamp(object.metadata.creationTimestamp) > timestamp(0)",
            })
    void validDurationAndTimestampLiteralsCompile(String expression) {
        assertCompiles(expression);
    }

    @Test
    void aDurationLiteralThatDoesNotParseIsInvalidAtTheLiteral() {
        String e = "duration('1x') > duration('0s')";
        assertEquals(error(e, 10, "invalid duration argument"), CelEval.compileError(e));
        String bogus = "object.spec.ttl < duration('bogus')";
        assertEquals(error(bogus, 28, "invalid duration argument"), CelEval.compileError(bogus));
    }

    @Test
    void aTimestampLiteralThatDoesNotParseOrIsOutOfRangeIsInvalid() {
        String e = "timestamp('bad') == timestamp(0)";
        assertEquals(error(e, 11, "invalid timestamp argument"), CelEval.compileError(e));
        String range = "timestamp(0) < timestamp(999999999999999)";
        assertEquals(error(range, 26, "invalid timestamp argument"), CelEval.compileError(range));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "'abc'.matches('^a.c$')",
                "'abc'.matches('(?i)A[b-c]{1,2}')",
                "object.metadata.name.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
                "'a'.matches('(a{10}){100}')",
                "'a'.matches('(?P<x>a)|\\\\pL+|[[:alpha:]]')",
                // cel-go checks the first argument: the string of the global form.
                "matches('abc', 'b')",
                "!'a'.matches(object.metadata.name + '[')",
            })
    void validRegexLiteralsCompile(String expression) {
        assertCompiles(expression);
    }

    @Test
    void aRegexLiteralGoDoesNotCompileIsInvalidAtTheLiteral() {
        String e = "'a'.matches('[')";
        assertEquals(error(e, 13, "invalid matches argument"), CelEval.compileError(e));
        String global = "matches('[', 'a')";
        assertEquals(error(global, 9, "invalid matches argument"), CelEval.compileError(global));
        String escape = "'a'.matches('\\\\8')";
        assertEquals(error(escape, 13, "invalid matches argument"), CelEval.compileError(escape));
    }

    @Test
    void goesRepetitionLimitsRefuseWhatRe2jWouldBuild() {
        // Go's repeatIsValid: nested repetitions past 1,000 copies; RE2J alone compiles it.
        String nested = "'a'.matches('(a{100}){100}')";
        assertEquals(error(nested, 13, "invalid matches argument"), CelEval.compileError(nested));
        String count = "'a'.matches('a{1001}')";
        assertEquals(error(count, 13, "invalid matches argument"), CelEval.compileError(count));
        String deep = "'a'.matches('" + "(".repeat(1100) + "a" + ")".repeat(1100) + "')";
        assertTrue(CelEval.compileError(deep).contains("invalid matches argument"));
        String large = "'a'.matches('" + "(?:a{1000})".repeat(200) + "')";
        assertTrue(CelEval.compileError(large).contains("invalid matches argument"));
    }

    @Test
    void mixedListElementsAreInvalidAtTheFirstMismatch() {
        String e = "[1, 'a', 2.0].size() == 3";
        assertEquals(
                error(e, 5, "expected type 'int' but found 'string'"), CelEval.compileError(e));
        String nested = "[[1], ['a']].size() == 2";
        assertEquals(
                error(nested, 7, "expected type 'list(int)' but found 'list(string)'"),
                CelEval.compileError(nested));
        String dyn = "object.metadata.name in ['a', object.kind]";
        assertEquals(
                error(dyn, 37, "expected type 'string' but found 'dyn'"),
                CelEval.compileError(dyn));
        String times = "[timestamp(0), duration('1s')].size() == 2";
        assertEquals(
                error(times, 24, "expected type 'timestamp' but found 'duration'"),
                CelEval.compileError(times));
        String nul = "[null, 1].size() == 2";
        assertEquals(
                error(nul, 8, "expected type 'null' but found 'int'"), CelEval.compileError(nul));
    }

    @Test
    void everyMixedMapEntryIsInvalidAtItsKeyAndValue() {
        String e = "{'a': 1, 2: 'b'}.size() == 2";
        assertEquals(
                "compilation failed: ERROR: <input>:1:10: expected type 'string' but found 'int'\n"
                        + " | "
                        + e
                        + "\n | .........^\n"
                        + "ERROR: <input>:1:13: expected type 'int' but found 'string'\n"
                        + " | "
                        + e
                        + "\n | ............^",
                CelEval.compileError(e));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "['a', 'b'].size() == 2",
                "[].size() == 0",
                "[object.a, object.b].size() == 2",
                "{'a': [1], 'b': [2]}.size() == 2",
                "[?optional.of(1), 2].size() == 2",
                "{?'a': optional.of(1), 'b': 2}.size() == 2",
                // format's argument list mixes types by design: exempt, at any depth.
                "'%s %d'.format(['a', 1]) == 'a 1'",
                "'%s'.format([[1, 'a']]) == '[1, a]'",
            })
    void homogeneousAndExemptLiteralsCompile(String expression) {
        assertCompiles(expression);
    }

    @Test
    void anOptionalElementCountsAsItsContent() {
        String e = "[?optional.of(1), 'a'].size() == 2";
        assertEquals(
                error(e, 19, "expected type 'int' but found 'string'"), CelEval.compileError(e));
    }

    @Test
    void pastAHundredErrorsTheRestAreCounted() {
        StringBuilder map = new StringBuilder("{'a': 1");
        for (int i = 0; i < 75; i++) {
            map.append(", ").append(i).append(": 'b'");
        }
        String detail = CelEval.compileError(map.append("}.size() > 0").toString());
        assertTrue(detail.endsWith("\n50 more errors were truncated"), detail);
        assertEquals(100, detail.split("\nERROR: ", -1).length, detail);
    }

    /** Huge literals cost a pass each, never the stack or the heap. */
    @Test
    void hugeLiteralsAreCheckedInBoundedWork() {
        String list = "[" + "1, ".repeat(10_000) + "'a'].size() > 0";
        assertTrue(CelEval.compileError(list).contains("expected type 'int' but found 'string'"));
        String regex = "'a'.matches('" + "a{1000}".repeat(10_000) + "')";
        assertTrue(CelEval.compileError(regex).contains("invalid matches argument"));
        String nested = "[".repeat(5_000) + "]".repeat(5_000) + ".size() > 0";
        assertInstanceOf(AdmissionCel.Invalid.class, AdmissionCel.get().compile(nested));
    }
}
