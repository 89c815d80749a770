package io.kubepekko.api.admission.cel;

import static io.kubepekko.api.admission.cel.CelEval.assertError;
import static io.kubepekko.api.admission.cel.CelEval.compileError;
import static io.kubepekko.api.admission.cel.CelEval.evalString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * cel-go's {@code string.format} as kube's strings library (version 2) has it: the cases of cel-go
 * v0.26's {@code ext/formatting_test.go} and {@code strings.go} doc comment that hold for en-US,
 * and Go's own {@code fmt}/{@code x/text} outputs where they decide the printing.
 */
class CelStringFormatTest {

    static Stream<Arguments> formats() {
        return Stream.of(
                // cel-go's documented examples
                Arguments.of(
                        "'this is a string: %s\\nand an integer: %d'.format(['str', 42])",
                        "this is a string: str\nand an integer: 42"),
                Arguments.of(
                        "'a double substituted with %%s: %s'.format([64.2])",
                        "a double substituted with %s: 64.2"),
                // cel-go's doc comment says "string type: string", but type(string) is the type
                // `type`, which cel-go's string conversion names "type".
                Arguments.of("'string type: %s'.format([type(string)])", "string type: type"),
                Arguments.of(
                        "'timestamp: %s'.format([timestamp('2023-02-03T23:31:20+00:00')])",
                        "timestamp: 2023-02-03T23:31:20Z"),
                Arguments.of("'duration: %s'.format([duration('1h45m47s')])", "duration: 6347s"),
                Arguments.of("'%f'.format([3.14])", "3.140000"),
                Arguments.of(
                        "'scientific notation: %e'.format([2.71828])",
                        "scientific notation: 2.718280\u202f\u00d7\u202f10\u2070\u2070"),
                Arguments.of("'5 in binary: %b'.format([5])", "5 in binary: 101"),
                Arguments.of("'26 in hex: %x'.format([26])", "26 in hex: 1a"),
                Arguments.of(
                        "'26 in hex (uppercase): %X'.format([26])", "26 in hex (uppercase): 1A"),
                Arguments.of("'30 in octal: %o'.format([30])", "30 in octal: 36"),
                Arguments.of(
                        "'a map inside a list: %s'.format([[1, 2, 3, {'a': 'x', 'b': 'y', 'c':"
                                + " 'z'}]])",
                        "a map inside a list: [1, 2, 3, {\"a\":\"x\", \"b\":\"y\", \"c\":\"z\"}]"),
                Arguments.of(
                        "'true bool: %s - false bool: %s\\nbinary bool: %b'.format([true, false,"
                                + " true])",
                        "true bool: true - false bool: false\nbinary bool: 1"),
                // cel-go's table
                Arguments.of("'no substitution'.format([])", "no substitution"),
                Arguments.of(
                        "'str is %s and some more'.format(['filler'])",
                        "str is filler and some more"),
                Arguments.of("'%% and also %%'.format([])", "% and also %"),
                Arguments.of("'%%%s%%'.format(['text'])", "%text%"),
                Arguments.of(
                        "'%d %d %d, %s %s %s, %d %d %d, %s %s %s'.format([1, 2, 3, 'A', 'B', 'C',"
                                + " 4, 5, 6, 'D', 'E', 'F'])",
                        "1 2 3, A B C, 4 5 6, D E F"),
                Arguments.of("'%.3f'.format([1.2345])", "1.234"),
                Arguments.of("'%b'.format([-5])", "-101"),
                Arguments.of("'%b'.format([uint(64)])", "1000000"),
                Arguments.of("'%o'.format([-11])", "-13"),
                Arguments.of("'%o'.format([uint(65535)])", "177777"),
                Arguments.of("'%x'.format([-30])", "-1e"),
                Arguments.of("'%X'.format([uint(6000)])", "1770"),
                Arguments.of("'%x'.format(['Hello world!'])", "48656c6c6f20776f726c6421"),
                Arguments.of("'%X'.format(['Hello world!'])", "48656C6C6F20776F726C6421"),
                Arguments.of("'%x'.format([b'byte string'])", "6279746520737472696e67"),
                Arguments.of(
                        "'%x'.format([b'\\x00\\x00byte string\\x00'])",
                        "00006279746520737472696e6700"),
                Arguments.of(
                        "'%.6e'.format([1052.032911275])",
                        "1.052033\u202f\u00d7\u202f10\u2070\u00b3"),
                Arguments.of("'%s'.format([2.71])", "2.71"),
                Arguments.of("'%s'.format([[2.71]])", "[2.710000]"),
                Arguments.of("'%s'.format([0.000000002])", "2e-09"),
                Arguments.of("'%s'.format([[0.000000002]])", "[0.000000]"),
                Arguments.of("'%f'.format(['NaN'])", "NaN"),
                Arguments.of("'%f'.format(['Infinity'])", "\u221e"),
                Arguments.of("'%f'.format(['-Infinity'])", "-\u221e"),
                Arguments.of("'%s'.format([double('NaN')])", "NaN"),
                Arguments.of("'%s'.format([double('Infinity')])", "+Inf"),
                Arguments.of("'%s'.format([double('-Infinity')])", "-Inf"),
                Arguments.of(
                        "'%s'.format([[double('NaN'), double('Infinity'), double('-Infinity')]])",
                        "[\"NaN\", \"+Inf\", \"-Inf\"]"),
                Arguments.of("'%d'.format([uint(64)])", "64"),
                Arguments.of("'null: %s'.format([null])", "null: null"),
                Arguments.of("'%s'.format([999999999999])", "999999999999"),
                Arguments.of("'some bytes: %s'.format([b'xyz'])", "some bytes: xyz"),
                Arguments.of("'type is %s'.format([type('test string')])", "type is string"),
                Arguments.of("'%s'.format([duration('2ns')])", "0.000000002s"),
                Arguments.of(
                        "'%s'.format([['abc', 3.14, null, [9, 8, 7, 6],"
                                + " timestamp('2023-02-03T23:31:20Z')]])",
                        "[\"abc\", 3.140000, null, [9, 8, 7, 6],"
                                + " timestamp(\"2023-02-03T23:31:20Z\")]"),
                Arguments.of(
                        "'%s'.format([{'key1': b'xyz', 'key5': null, 'key2': duration('2h'),"
                                + " 'key4': true, 'key3': 2.71828}])",
                        "{\"key1\":b\"xyz\", \"key2\":duration(\"7200s\"), \"key3\":2.718280,"
                                + " \"key4\":true, \"key5\":null}"),
                Arguments.of(
                        "'map with multiple key types: %s'.format([{1: 'value1', uint(2): 'value2',"
                                + " true: double('NaN')}])",
                        "map with multiple key types: {1:\"value1\", 2:\"value2\", true:\"NaN\"}"),
                Arguments.of(
                        "'list: %s'.format([[[1, 2, [3.0, 4]]]])", "list: [[1, 2, [3.000000, 4]]]"),
                Arguments.of(
                        "'list element: %s'.format([[[1, 2, [3.0, 4]]][0]])",
                        "list element: [1, 2, [3.000000, 4]]"),
                // Go's printing decides: %g's exponent from 1e6 and below 1e-4, x/text's grouping
                // and signs, Go's %q inside lists, a timestamp's fraction without trailing zeros
                Arguments.of(
                        "'%s %s %s %s %s'.format([1000000.0, 123456.0, 0.0001, 1e21, -0.0])",
                        "1e+06 123456 0.0001 1e+21 -0"),
                Arguments.of("'%f'.format([1234567.8])", "1,234,567.800000"),
                Arguments.of("'%.2f %f'.format([-7.0, -1e-9])", "-7.00 -0.000000"),
                Arguments.of("'%.1f %.0f %.0f'.format([0.25, 2.5, 3.5])", "0.2 2 4"),
                Arguments.of(
                        "'%e %.0e'.format([-1e-9, 0.0])",
                        "-1.000000\u202f\u00d7\u202f10\u207b\u2070\u2079 0\u202f\u00d7\u202f10\u2070\u2070"),
                Arguments.of(
                        "'%s'.format([['a\"b', '\u00e9', '\\n', '\\u00a0', '\\x07']])",
                        "[\"a\\\"b\", \"\u00e9\", \"\\n\", \"\\u00a0\", \"\\a\"]"),
                Arguments.of(
                        "'%s'.format([timestamp('2023-02-03T23:31:20.120Z')])",
                        "2023-02-03T23:31:20.12Z"),
                Arguments.of("'%s'.format([duration('-1.5s')])", "-1.5s"),
                Arguments.of("'%s'.format([{'b': 1, 'a': [b'x']}])", "{\"a\":[b\"x\"], \"b\":1}"),
                // arguments known only when evaluated are checked then
                Arguments.of("'%d %s'.format([dyn(1), dyn([dyn('x')])])", "1 [\"x\"]"));
    }

    @ParameterizedTest
    @MethodSource("formats")
    void formatsAsCelGo(String expression, String expected) throws Exception {
        assertEquals(expected, evalString(expression), expression);
    }

    /** cel-go's runtime errors, reached with arguments the compile-time check cannot see. */
    @ParameterizedTest
    @MethodSource("evaluationErrors")
    void failsWhenEvaluatedInCelGosWords(String expression, String message) {
        assertError(expression, message);
    }

    static Stream<Arguments> evaluationErrors() {
        String typesForS =
                "string clause can only be used on strings, bools, bytes, ints, doubles, maps,"
                        + " lists, types, durations, and timestamps, was given ";
        return Stream.of(
                Arguments.of(
                        "'%b'.format([dyn('a string')]) == ''",
                        "error during formatting: only integers and bools can be formatted as"
                                + " binary, was given string"),
                Arguments.of(
                        "'%d'.format([dyn(duration('30m2s'))]) == ''",
                        "error during formatting: decimal clause can only be used on integers, was"
                                + " given google.protobuf.Duration"),
                Arguments.of(
                        "'octal: %o'.format([dyn('a string')]) == ''",
                        "error during formatting: octal clause can only be used on integers, was"
                                + " given string"),
                Arguments.of(
                        "'double is %x'.format([dyn(0.5)]) == ''",
                        "error during formatting: only integers, byte buffers, and strings can be"
                                + " formatted as hex, was given double"),
                Arguments.of(
                        "('double is ' + '%E').format([0.5]) == ''",
                        "could not parse formatting clause: unrecognized formatting clause \"E\""),
                Arguments.of(
                        "'null: %d'.format([dyn(null)]) == ''",
                        "error during formatting: decimal clause can only be used on integers, was"
                                + " given null_type"),
                Arguments.of(
                        "'null: %e'.format([dyn(null)]) == ''",
                        "error during formatting: scientific clause can only be used on doubles,"
                                + " was given null_type"),
                Arguments.of(
                        "'null: %f'.format([dyn(null)]) == ''",
                        "error during formatting: fixed-point clause can only be used on doubles,"
                                + " was given null_type"),
                Arguments.of(
                        "'%s'.format([dyn(ip('1.2.3.4'))]) == ''",
                        "error during formatting: " + typesForS + "net.IP"),
                Arguments.of(
                        "'%s'.format([[dyn(ip('1.2.3.4'))]]) == ''",
                        "error during formatting: no formatting function for net.IP"),
                Arguments.of(
                        "'%s'.format([b'\\xff']) == ''",
                        "error during formatting: could not convert argument \"invalid UTF-8 in"
                                + " bytes, cannot convert to string\" to string"),
                Arguments.of("('%s' + ' %s').format(['abc']) == ''", "index 1 out of range"),
                Arguments.of("('filler ' + '%').format(['a']) == ''", "unexpected end of string"),
                Arguments.of("('filler ' + '%').format([]) == ''", "index 0 out of range"),
                Arguments.of(
                        "('%.' + 'f').format([1.0]) == ''",
                        "could not parse formatting clause: error while parsing precision: error"
                                + " while converting precision to integer: strconv.Atoi: parsing"
                                + " \"\": invalid syntax"));
    }

    /** cel-go's stringFormatValidator, which kube's environment runs when compiling. */
    @ParameterizedTest
    @MethodSource("compileErrors")
    void literalCallsAreCheckedWhenCompiled(String expression, String message) {
        String detail = compileError(expression);
        assertTrue(
                detail.startsWith("compilation failed: ERROR: <input>:1:")
                        && detail.contains(message),
                detail);
    }

    static Stream<Arguments> compileErrors() {
        return Stream.of(
                Arguments.of("'%s %s'.format(['abc']) == ''", ": index 1 out of range"),
                Arguments.of(
                        "'%s %s'.format(['abc', 'def', 'ghi']) == ''",
                        ": too many arguments supplied to string.format (expected 2, got 3)"),
                Arguments.of("'filler %'.format([]) == ''", ": unexpected end of string"),
                Arguments.of(
                        "'%j'.format([123]) == ''",
                        ": could not parse formatting clause: unrecognized formatting clause"
                                + " \"j\""),
                Arguments.of(
                        "'object is %s'.format([ip('1.2.3.4')]) == ''",
                        ": error during formatting: string clause can only be used on strings,"
                                + " bools, bytes, ints, doubles, maps, lists, types, durations, and"
                                + " timestamps, was given net.IP"),
                Arguments.of(
                        "'list is %s'.format([[1, 2, ip('1.2.3.4')]]) == ''",
                        ": error during formatting: string clause can only be used on strings,"
                                + " bools, bytes, ints, doubles, maps, lists, types, durations, and"
                                + " timestamps, was given net.IP"),
                Arguments.of(
                        "'int is %d'.format([5.2]) == ''",
                        ": error during formatting: decimal clause can only be used on integers,"
                                + " was given double"),
                Arguments.of(
                        "'double is %f'.format([true]) == ''",
                        ": error during formatting: fixed-point clause can only be used on"
                                + " doubles, was given bool"),
                Arguments.of(
                        "'double is %.34'.format([5.0]) == ''",
                        ": could not parse formatting clause: error while parsing precision:"
                                + " could not find end of precision specifier"),
                Arguments.of(
                        "'string is %b'.format(['a string']) == ''",
                        ": error during formatting: only integers and bools can be formatted as"
                                + " binary, was given string"),
                Arguments.of(
                        "'%X is a double'.format([2.5]) == ''",
                        ": error during formatting: only integers, byte buffers, and strings can"
                                + " be formatted as hex, was given double"),
                Arguments.of(
                        "'an octal: %o'.format([3.14]) == ''",
                        ": error during formatting: octal clause can only be used on integers,"
                                + " was given double"));
    }

    @Test
    void aFormatStringKnownOnlyWhenEvaluatedIsNotCheckedWhenCompiled() throws Exception {
        assertEquals("7", evalString("('%' + 'd').format([7])"));
    }
}
