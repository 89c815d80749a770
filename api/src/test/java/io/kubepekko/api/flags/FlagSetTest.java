package io.kubepekko.api.flags;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.meta.GoDurations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A command line parsed as pflag parses it, against flags declared once as data. */
class FlagSetTest {

    private static Duration duration(String text) throws Flag.InvalidValue {
        try {
            return Duration.ofNanos(GoDurations.parse(text));
        } catch (IllegalArgumentException e) {
            throw new Flag.InvalidValue(text, "time: invalid duration \"" + text + "\"");
        }
    }

    private static int number(String text) throws Flag.InvalidValue {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new Flag.InvalidValue(
                    text, "strconv.ParseInt: parsing \"" + text + "\": invalid syntax");
        }
    }

    private static boolean bool(String text) throws Flag.InvalidValue {
        return switch (text) {
            case "true" -> true;
            case "false" -> false;
            default ->
                    throw new Flag.InvalidValue(
                            text, "strconv.ParseBool: parsing \"" + text + "\": invalid syntax");
        };
    }

    static final Flag<Integer> PORT =
            new Flag<>(
                    "port",
                    "int",
                    "8080",
                    "the port",
                    false,
                    false,
                    Flag.last(FlagSetTest::number));
    static final Flag<Integer> PORT_RANGE_START =
            new Flag<>(
                    "port-range-start",
                    "int",
                    "1",
                    "a name that starts as another",
                    false,
                    false,
                    Flag.last(FlagSetTest::number));
    static final Flag<Duration> DELAY =
            new Flag<>(
                    "delay",
                    "duration",
                    "0s",
                    "a delay",
                    false,
                    false,
                    Flag.last(FlagSetTest::duration));
    static final Flag<Duration> PERIOD =
            new Flag<>(
                    "period",
                    "duration",
                    "1m30s",
                    "a period",
                    false,
                    false,
                    Flag.last(FlagSetTest::duration));
    static final Flag<String> NAME =
            new Flag<>("name", "string", "node-a", "a name", false, false, Flag.last(t -> t));
    static final Flag<Optional<String>> OWNER =
            new Flag<>("owner", "string", null, "no default", false, false, Flag.optional(t -> t));
    static final Flag<Boolean> ENABLED =
            new Flag<>(
                    "enabled", "", "true", "a boolean", true, false, Flag.last(FlagSetTest::bool));
    static final Flag<List<String>> HEADER =
            new Flag<>(
                    "header",
                    "stringArray",
                    null,
                    "every occurrence counts",
                    false,
                    true,
                    given -> {
                        List<String> all = new ArrayList<>();
                        for (String text : given) {
                            if (!text.contains(":")) {
                                throw new Flag.InvalidValue(
                                        text, "malformed pair, expect string:string");
                            }
                            all.add(text);
                        }
                        return all;
                    });
    static final Flag<String> OLD =
            new Flag<>("old-name", "string", "x", "an old flag", false, false, Flag.last(t -> t))
                    .deprecated("use --name instead");

    static final FlagSet FLAGS =
            new FlagSet(
                    "cmd",
                    "A command.",
                    List.of(
                            PORT,
                            PORT_RANGE_START,
                            DELAY,
                            PERIOD,
                            NAME,
                            OWNER,
                            ENABLED,
                            HEADER,
                            OLD),
                    arg -> "unexpected argument \"" + arg + "\"");

    private static FlagSet.Parsed.Values values(String... args) {
        return assertInstanceOf(
                FlagSet.Parsed.Values.class, FLAGS.parse(args), List.of(args).toString());
    }

    private static String error(String... args) {
        String message =
                assertInstanceOf(
                                FlagSet.Parsed.Invalid.class,
                                FLAGS.parse(args),
                                List.of(args).toString())
                        .message();
        assertFalse(message.contains("\n"), "one line: " + message);
        return message;
    }

    @Test
    void absentFlagsTakeTheirDeclaredDefaultsAndAreNotGiven() {
        FlagSet.Parsed.Values v = values();
        assertEquals(8080, v.get(PORT));
        assertEquals(Duration.ofSeconds(90), v.get(PERIOD));
        assertEquals(Optional.empty(), v.get(OWNER));
        assertEquals(true, v.get(ENABLED));
        assertEquals(List.of(), v.get(HEADER));
        assertEquals(Optional.empty(), v.given(PORT), "a default is not given");
        assertEquals(Optional.of(8080), values("--port=8080").given(PORT));
    }

    @Test
    void valueEitherAfterEqualsOrAsTheNextArgument() {
        assertEquals(6443, values("--port", "6443").get(PORT));
        assertEquals(6443, values("--port=6443").get(PORT));
        assertEquals("a=b", values("--name=a=b").get(NAME), "only the first = separates");
        assertEquals("", values("--name=").get(NAME));
        assertEquals(
                "--port",
                values("--name", "--port").get(NAME),
                "the next argument is the value, whatever it is");
        assertEquals(Duration.ofSeconds(10), values("--delay", "10s").get(DELAY));
        assertEquals(Duration.ofSeconds(90), values("--delay=1m30s").get(DELAY));
    }

    @Test
    void booleansTakeNoSeparateValue() {
        assertEquals(true, values("--enabled=false", "--enabled").get(ENABLED));
        assertEquals(false, values("--enabled=false").get(ENABLED));
        assertEquals("unexpected argument \"false\"", error("--enabled", "false"));
    }

    @Test
    void theLastOccurrenceWinsUnlessTheFlagIsRepeatable() {
        assertEquals(7, values("--port", "6", "--port=7").get(PORT));
        assertEquals(
                List.of("a:1", "b:2", "a:3"),
                values("--header", "a:1", "--header=b:2", "--header", "a:3").get(HEADER));
    }

    @Test
    void everyOccurrenceIsCheckedInOrder() {
        assertEquals(
                "invalid argument \"x\" for \"--port\" flag: strconv.ParseInt: parsing \"x\": invalid syntax",
                error("--port=x", "--port=7"),
                "pflag sets every occurrence: an overridden bad one is still refused");
        assertEquals(
                "invalid argument \"x\" for \"--port\" flag: strconv.ParseInt: parsing \"x\": invalid syntax",
                error("--port=x", "--no-such-flag"),
                "the first problem is the error");
        assertEquals("unknown flag: --no-such-flag", error("--no-such-flag", "--port=x"));
    }

    /**
     * The regression of issue 24: a flag missing from the declarations fell into another flag's
     * branch.
     */
    @Test
    void aFlagMissingFromTheDeclarationsIsUnknownWhateverItsName() {
        assertEquals("unknown flag: --secure-port", error("--secure-port", "6443"));
        assertEquals("unknown flag: --secure-port", error("--secure-port=6443"));
        assertEquals("unknown flag: --prot", error("--prot=1"), "a typo is no other flag");
        assertEquals("unknown flag: --port-range", error("--port-range=1"), "nor a prefix of one");
        assertEquals(
                "unknown flag: --Port", error("--Port=1"), "names are case-sensitive, as in pflag");
        assertEquals("unknown flag: --delay-duration", error("--delay-duration", "5s"));
        assertEquals("unknown shorthand flag: 'p' in -p", error("-p", "1"));
        assertEquals("unknown shorthand flag: 'x' in -hx", error("-hx"));
        assertEquals("bad flag syntax: ---port", error("---port"));
        assertEquals("bad flag syntax: --=1", error("--=1"));
    }

    @Test
    void aMistypedValueNamesTheFlagAndTheValue() {
        assertEquals(
                "invalid argument \"10\" for \"--delay\" flag: time: invalid duration \"10\"",
                error("--delay", "10"));
        assertEquals(
                "invalid argument \"soon\" for \"--period\" flag: time: invalid duration \"soon\"",
                error("--period=soon"));
        assertEquals(
                "invalid argument \"http\" for \"--port\" flag: strconv.ParseInt: parsing \"http\": invalid syntax",
                error("--port", "http"));
        assertEquals(
                "invalid argument \"maybe\" for \"--enabled\" flag: strconv.ParseBool: parsing \"maybe\": invalid syntax",
                error("--enabled=maybe"));
        assertEquals(
                "invalid argument \"nocolon\" for \"--header\" flag: malformed pair, expect string:string",
                error("--header=a:1", "--header", "nocolon"));
    }

    static final Flag<Integer> V =
            new Flag<>(
                    "v",
                    "Level",
                    "0",
                    "number for the log level verbosity",
                    false,
                    false,
                    Flag.last(FlagSetTest::number));

    /** kube's {@code -v, --v}: a one-letter flag answers to its shorthand, as pflag's VarP. */
    @Test
    void aOneLetterFlagAnswersToItsShorthandAsKubesV() {
        FlagSet set = new FlagSet("cmd", "A command.", List.of(PORT, V), arg -> arg);
        for (String[] args :
                List.of(
                        new String[] {"-v", "4"},
                        new String[] {"-v=4"},
                        new String[] {"-v4"},
                        new String[] {"--v", "4"},
                        new String[] {"--v=4"},
                        new String[] {"-v", "2", "--port=1", "--v=4"})) {
            FlagSet.Parsed.Values v =
                    assertInstanceOf(FlagSet.Parsed.Values.class, set.parse(args));
            assertEquals(4, v.get(V), List.of(args).toString());
        }
        assertEquals(
                "invalid argument \"x\" for \"-v, --v\" flag: strconv.ParseInt: parsing \"x\":"
                        + " invalid syntax",
                assertInstanceOf(FlagSet.Parsed.Invalid.class, set.parse("-vx")).message());
        assertEquals(
                "flag needs an argument: 'v' in -v",
                assertInstanceOf(FlagSet.Parsed.Invalid.class, set.parse("-v")).message());
        assertEquals(
                "unknown shorthand flag: 'p' in -p",
                assertInstanceOf(FlagSet.Parsed.Invalid.class, set.parse("-p", "1")).message());
        assertTrue(
                set.usage()
                        .matches("(?s).*\n  -v, --v Level +number for the log level verbosity.*"),
                set.usage());
    }

    @Test
    void aFlagWithoutItsValueOrAnArgumentThatIsNoFlag() {
        assertEquals("flag needs an argument: --port", error("--port"));
        assertEquals("unexpected argument \"serve\"", error("serve"));
        assertEquals("unexpected argument \"-\"", error("-"));
        assertEquals("unexpected argument \"serve\"", error("--port=1", "--", "serve"));
        assertEquals(1, values("--port=1", "--").get(PORT), "-- alone ends the flags");
    }

    @Test
    void helpAndVersionStopTheParseWhereTheyStand() {
        assertInstanceOf(FlagSet.Parsed.Help.class, FLAGS.parse("-h", "--no-such-flag"));
        assertInstanceOf(FlagSet.Parsed.Help.class, FLAGS.parse("--port=1", "--help"));
        assertInstanceOf(FlagSet.Parsed.Version.class, FLAGS.parse("--version", "serve"));
        assertEquals("unknown flag: --no-such-flag", error("--no-such-flag", "--help"));
    }

    @Test
    void helpListsEveryDeclaredFlagWithItsTypeAndDefault() {
        String usage = FLAGS.usage();
        assertTrue(usage.startsWith("Usage: cmd [flags]\n\nA command.\n\nFlags:\n"), usage);
        for (Flag<?> flag : FLAGS.flags()) {
            if (flag.deprecated() != null) {
                continue;
            }
            String line =
                    usage.lines()
                            .filter(l -> l.startsWith("      " + flag.option() + " "))
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new AssertionError(
                                                    flag.option() + " missing from\n" + usage));
            assertTrue(line.contains(flag.help()), line);
            if (!flag.type().isEmpty()) {
                assertTrue(
                        line.startsWith("      " + flag.option() + " " + flag.type() + " "), line);
            }
            if (flag.defaultText() != null) {
                assertTrue(
                        line.contains(
                                " (default "
                                        + (flag.type().equals("string")
                                                ? "\"" + flag.defaultText() + "\""
                                                : flag.defaultText())
                                        + ")"),
                        line);
            } else {
                assertFalse(line.contains("(default"), line);
            }
        }
        assertTrue(usage.contains("  -h, --help"));
        assertTrue(usage.contains("      --version"));
        List<String> names =
                usage.lines()
                        .filter(l -> l.startsWith("      --"))
                        .map(l -> l.trim().split(" ")[0])
                        .toList();
        assertEquals(
                names.stream().sorted().toList(), names, "sorted by name, as pflag lists them");
    }

    @Test
    void aDeprecatedFlagStillWorksWarnsOnceAndIsLeftOutOfTheHelp() {
        FlagSet.Parsed.Values v = values("--old-name=y", "--old-name=z");
        assertEquals("z", v.get(OLD));
        assertEquals(
                List.of("Flag --old-name has been deprecated, use --name instead"), v.warnings());
        assertEquals(List.of(), values("--name=y").warnings());
        assertFalse(FLAGS.usage().contains("--old-name"));
    }

    @Test
    void aFlagIsDeclaredOnce() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new FlagSet("cmd", "", List.of(PORT, PORT), a -> a));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new FlagSet(
                                "cmd",
                                "",
                                List.of(
                                        new Flag<>(
                                                "help",
                                                "",
                                                null,
                                                "",
                                                true,
                                                false,
                                                Flag.last(t -> t))),
                                a -> a));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Flag<>("--port", "int", null, "", false, false, Flag.last(t -> t)));
    }

    @Test
    void aDefaultTheFlagRefusesIsABugInItsDeclaration() {
        FlagSet bad =
                new FlagSet(
                        "cmd",
                        "",
                        List.of(
                                new Flag<>(
                                        "port",
                                        "int",
                                        "eighty",
                                        "",
                                        false,
                                        false,
                                        Flag.last(FlagSetTest::number))),
                        a -> a);
        assertThrows(IllegalStateException.class, bad::parse);
    }

    static Stream<Arguments> defaultNotes() {
        return Stream.of(
                Arguments.of("string", "a", " (default \"a\")"),
                Arguments.of("strings", "a:1", " (default [a:1])"),
                Arguments.of("stringArray", "https://a", " (default [https://a])"),
                Arguments.of("duration", "0s", " (default 0s)"),
                Arguments.of("int", "", ""));
    }

    @ParameterizedTest
    @MethodSource("defaultNotes")
    void theDefaultIsShownAsPflagShowsIt(String type, String defaultText, String note) {
        assertEquals(
                note,
                FlagSet.defaultNote(
                        new Flag<>("f", type, defaultText, "", false, false, Flag.last(t -> t))));
    }
}
