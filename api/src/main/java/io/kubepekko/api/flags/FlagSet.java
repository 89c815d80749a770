package io.kubepekko.api.flags;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A command's flags, parsed as Kubernetes' commands (cobra with spf13/pflag) parse them, and its
 * {@code --help} generated from their declarations. A name not declared here is an unknown flag: no
 * declaration answers for another. Pure: it prints nothing and reads nothing; the conversions the
 * flags declare may.
 *
 * <p>The syntax is pflag's: {@code --flag=value} and {@code --flag value} (the next argument is the
 * value, whatever it looks like); a boolean takes {@code --flag} or {@code --flag=value}, never the
 * next argument; the last occurrence wins unless the flag is repeatable; every occurrence is
 * converted in order, so the first bad one is the error; {@code --} ends the flags. {@code
 * -h}/{@code --help} and {@code --version} stop the parse where they stand. A flag with a
 * one-letter name answers to its shorthand too ({@code -v 2}, {@code -v=2}, {@code -v2}), as kube's
 * {@code -v, --v}.
 */
public final class FlagSet {
    private final String command;
    private final String description;
    private final List<Flag<?>> flags;
    private final Map<String, Flag<?>> byName = new HashMap<>();
    private final UnaryOperator<String> positionalError;

    /**
     * @param command the command's name, for the help
     * @param description what the command does, for the help
     * @param flags every flag; the help lists them by name, as pflag sorts them
     * @param positionalError the one-line error for an argument that is no flag (the command takes
     *     none)
     */
    public FlagSet(
            String command,
            String description,
            List<Flag<?>> flags,
            UnaryOperator<String> positionalError) {
        this.command = Objects.requireNonNull(command);
        this.description = Objects.requireNonNull(description);
        List<Flag<?>> sorted = new ArrayList<>(flags);
        sorted.sort(Comparator.comparing(Flag::name));
        this.flags = List.copyOf(sorted);
        this.positionalError = Objects.requireNonNull(positionalError);
        for (Flag<?> flag : this.flags) {
            if (flag.name().equals("help")
                    || flag.name().equals("version")
                    || byName.put(flag.name(), flag) != null) {
                throw new IllegalArgumentException("flag declared twice: " + flag.option());
            }
        }
    }

    /** Every flag, sorted by name. */
    public List<Flag<?>> flags() {
        return flags;
    }

    /** The outcome of parsing a command line. */
    public sealed interface Parsed {
        /** Run with these values. */
        record Values(
                Map<Flag<?>, Object> values, Map<Flag<?>, Object> given, List<String> warnings)
                implements Parsed {
            public Values {
                values = Map.copyOf(values);
                given = Map.copyOf(given);
                warnings = List.copyOf(warnings);
            }

            /** The flag's value: what was given, else its default's. */
            @SuppressWarnings("unchecked")
            public <T> T get(Flag<T> flag) {
                if (!values.containsKey(flag)) {
                    throw new IllegalArgumentException("not a flag of this set: " + flag.option());
                }
                Object value = values.get(flag);
                return value == NONE ? null : (T) value;
            }

            /**
             * The flag's value if it was given on the command line (a default fills nothing in).
             */
            public <T> Optional<T> given(Flag<T> flag) {
                T value = get(flag);
                return given.containsKey(flag) ? Optional.ofNullable(value) : Optional.empty();
            }
        }

        /** {@code -h}/{@code --help}: print {@link FlagSet#usage()} and exit 0. */
        record Help() implements Parsed {}

        /** {@code --version}: print the version and exit 0. */
        record Version() implements Parsed {}

        /** A usage error: print the one-line message and exit 2. */
        record Invalid(String message) implements Parsed {}
    }

    public Parsed parse(String... args) {
        Map<Flag<?>, List<String>> occurrences = new LinkedHashMap<>();
        List<String> warnings = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                if (i + 1 < args.length) {
                    return new Parsed.Invalid(positionalError.apply(args[i + 1]));
                }
                break;
            }
            if (arg.equals("-h") || arg.equals("--help")) {
                return new Parsed.Help();
            }
            if (arg.equals("--version")) {
                return new Parsed.Version();
            }
            if (!arg.startsWith("-") || arg.equals("-")) {
                return new Parsed.Invalid(positionalError.apply(arg));
            }
            Flag<?> shorthand = arg.startsWith("--") ? null : shorthand(arg);
            if (shorthand != null) {
                String rest = arg.substring(2);
                String value;
                if (rest.startsWith("=")) {
                    value = rest.substring(1);
                } else if (!rest.isEmpty()) {
                    value = rest;
                } else if (i + 1 < args.length) {
                    value = args[++i];
                } else {
                    return new Parsed.Invalid(
                            "flag needs an argument: '" + shorthand.name() + "' in " + arg);
                }
                try {
                    shorthand.conversion().convert(List.of(value));
                } catch (Flag.InvalidValue e) {
                    return invalid(shorthand, e);
                }
                occurrences.computeIfAbsent(shorthand, f -> new ArrayList<>()).add(value);
                continue;
            }
            if (!arg.startsWith("--")) {
                // Only -h and one-letter flags are shorthands; pflag names the first letter it does
                // not know.
                Optional<Character> unknown =
                        arg.substring(1)
                                .chars()
                                .filter(c -> c != 'h')
                                .mapToObj(c -> (char) c)
                                .findFirst();
                if (unknown.isEmpty()) {
                    return new Parsed.Help();
                }
                return new Parsed.Invalid(
                        "unknown shorthand flag: '" + unknown.get() + "' in " + arg);
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            if (name.isEmpty() || name.startsWith("-")) {
                return new Parsed.Invalid("bad flag syntax: " + arg);
            }
            Flag<?> flag = byName.get(name);
            if (flag == null) {
                return new Parsed.Invalid("unknown flag: --" + name);
            }
            String value;
            if (eq >= 0) {
                value = arg.substring(eq + 1);
            } else if (flag.boolean_()) {
                value = "true";
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                return new Parsed.Invalid("flag needs an argument: " + flag.option());
            }
            try {
                flag.conversion().convert(List.of(value));
            } catch (Flag.InvalidValue e) {
                return invalid(flag, e);
            }
            if (flag.deprecated() != null && !occurrences.containsKey(flag)) {
                warnings.add(
                        "Flag " + flag.option() + " has been deprecated, " + flag.deprecated());
            }
            occurrences.computeIfAbsent(flag, f -> new ArrayList<>()).add(value);
        }
        Map<Flag<?>, Object> values = new HashMap<>();
        Map<Flag<?>, Object> given = new HashMap<>();
        for (Flag<?> flag : flags) {
            List<String> texts = occurrences.get(flag);
            try {
                if (texts == null) {
                    values.put(
                            flag,
                            nullable(
                                    flag.conversion()
                                            .convert(
                                                    flag.defaultText() == null
                                                            ? List.of()
                                                            : List.of(flag.defaultText()))));
                } else {
                    Object value =
                            nullable(
                                    flag.conversion()
                                            .convert(
                                                    flag.repeatable()
                                                            ? texts
                                                            : List.of(
                                                                    texts.get(texts.size() - 1))));
                    values.put(flag, value);
                    given.put(flag, value);
                }
            } catch (Flag.InvalidValue e) {
                // A default the flag refuses is a bug in its declaration; a repeatable flag's
                // occurrences may
                // also be refused together (its checks see them all).
                if (texts == null) {
                    throw new IllegalStateException(
                            flag.option() + ": the default is refused: " + e.getMessage(), e);
                }
                return invalid(flag, e);
            }
        }
        return new Parsed.Values(values, given, warnings);
    }

    /**
     * Map.copyOf refuses nulls: a conversion that yields none stands for "nothing" as an absent
     * key.
     */
    private static Object nullable(Object value) {
        return value == null ? NONE : value;
    }

    private static final Object NONE = new Object();

    private static Parsed invalid(Flag<?> flag, Flag.InvalidValue e) {
        return new Parsed.Invalid(
                "invalid argument \""
                        + e.value()
                        + "\" for \""
                        + shown(flag)
                        + "\" flag: "
                        + e.getMessage());
    }

    /** The one-letter flag {@code arg} ({@code -v...}) names, or null. */
    private Flag<?> shorthand(String arg) {
        if (arg.length() < 2 || arg.charAt(1) == 'h') {
            return null;
        }
        return byName.get(String.valueOf(arg.charAt(1)));
    }

    /** How pflag names a flag in its messages and help: {@code -v, --v} with its shorthand. */
    private static String shown(Flag<?> flag) {
        return flag.name().length() == 1 ? "-" + flag.name() + ", " + flag.option() : flag.option();
    }

    /**
     * {@code --help}: the command, then one line per flag laid out as pflag's flag usages,
     * deprecated ones left out.
     */
    public String usage() {
        StringBuilder out =
                new StringBuilder(
                        "Usage: "
                                + command
                                + " [flags]\n\n"
                                + description.strip()
                                + "\n\nFlags:\n");
        List<String[]> rows = new ArrayList<>();
        for (Flag<?> flag : flags) {
            if (flag.deprecated() == null) {
                rows.add(
                        new String[] {
                            (flag.name().length() == 1 ? "  " : "      ")
                                    + shown(flag)
                                    + (flag.type().isEmpty() ? "" : " " + flag.type()),
                            flag.help() + defaultNote(flag)
                        });
            }
        }
        rows.add(new String[] {"  -h, --help", "help for " + command});
        rows.add(new String[] {"      --version", "Print version information and quit"});
        int width = rows.stream().mapToInt(r -> r[0].length()).max().orElse(0);
        for (String[] r : rows) {
            out.append(r[0])
                    .append(" ".repeat(width - r[0].length() + 3))
                    .append(r[1])
                    .append('\n');
        }
        return out.toString();
    }

    /** pflag's {@code (default ...)}: quoted for a string, bracketed for a list. */
    static String defaultNote(Flag<?> flag) {
        String d = flag.defaultText();
        if (d == null || d.isEmpty()) {
            return "";
        }
        return switch (flag.type()) {
            case "string" -> " (default \"" + d + "\")";
            case "strings", "stringArray" -> " (default [" + d + "])";
            default -> " (default " + d + ")";
        };
    }
}
