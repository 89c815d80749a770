package io.kubepekko.api.flags;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One command-line flag, declared once as data: its name, the type word pflag's help prints for it,
 * its default (as text, converted like a value given on the command line, so the default cannot
 * disagree with what the flag accepts), its help, whether it is deprecated, and how its given
 * values become a typed value. A {@link FlagSet} parses a command line against a list of these and
 * prints their help.
 *
 * @param name the long name without dashes, as Kubernetes names it
 * @param type pflag's type word in the help ({@code string}, {@code duration}, ...); empty for
 *     booleans
 * @param defaultText the value used when the flag is absent, or {@code null} for none
 * @param help one sentence for {@code --help}
 * @param boolean_ whether it is a boolean flag ({@code --flag} alone means true; a value only as
 *     {@code --flag=v})
 * @param repeatable whether every occurrence counts (maps, lists); otherwise the last one wins, as
 *     in pflag
 * @param conversion from the given texts (the default's when absent) to the value
 * @param deprecated {@code null}, or why and what instead: the flag still works, is left out of the
 *     help, and using it warns, as pflag's {@code MarkDeprecated}
 */
public record Flag<T>(
        String name,
        String type,
        String defaultText,
        String help,
        boolean boolean_,
        boolean repeatable,
        Conversion<T> conversion,
        String deprecated) {

    public Flag {
        Objects.requireNonNull(name);
        Objects.requireNonNull(type);
        Objects.requireNonNull(help);
        Objects.requireNonNull(conversion);
        if (name.isEmpty() || name.startsWith("-") || name.contains("=")) {
            throw new IllegalArgumentException(
                    "a flag's name is its long name without dashes: \"" + name + "\"");
        }
    }

    public Flag(
            String name,
            String type,
            String defaultText,
            String help,
            boolean boolean_,
            boolean repeatable,
            Conversion<T> conversion) {
        this(name, type, defaultText, help, boolean_, repeatable, conversion, null);
    }

    /** This flag, deprecated: {@code message} says why and what to use instead. */
    public Flag<T> deprecated(String message) {
        return new Flag<>(
                name,
                type,
                defaultText,
                help,
                boolean_,
                repeatable,
                conversion,
                Objects.requireNonNull(message));
    }

    /** The flag as written on the command line. */
    public String option() {
        return "--" + name;
    }

    /** Turns the texts given for a flag (one for a single-valued flag) into its value. */
    @FunctionalInterface
    public interface Conversion<T> {
        T convert(List<String> given) throws InvalidValue;
    }

    /** One text to one value; the flag set names the flag in the error. */
    @FunctionalInterface
    public interface Parser<T> {
        T parse(String text) throws InvalidValue;
    }

    /**
     * The last text given wins, as in pflag; the earlier ones are parsed too, so a bad one is
     * refused even when a later one overrides it (pflag sets every occurrence).
     */
    public static <T> Conversion<T> last(Parser<T> parser) {
        return given -> {
            if (given.isEmpty()) {
                throw new IllegalStateException(
                        "a flag without a default needs a conversion that allows none given");
            }
            T value = null;
            for (String text : given) {
                value = parser.parse(text);
            }
            return value;
        };
    }

    /** As {@link #last}, and absent (no default, nothing given) means empty. */
    public static <T> Conversion<Optional<T>> optional(Parser<T> parser) {
        Conversion<T> last = last(parser);
        return given -> given.isEmpty() ? Optional.empty() : Optional.of(last.convert(given));
    }

    /** Go's {@code strconv.ParseBool}, as pflag reads a boolean flag's value. */
    public static boolean goBool(String text) throws InvalidValue {
        return switch (text) {
            case "1", "t", "T", "TRUE", "true", "True" -> true;
            case "0", "f", "F", "FALSE", "false", "False" -> false;
            default ->
                    throw new InvalidValue(
                            text, "strconv.ParseBool: parsing \"" + text + "\": invalid syntax");
        };
    }

    /** A text a flag does not accept, with the reason in Kubernetes' words. */
    public static final class InvalidValue extends Exception {
        private static final long serialVersionUID = 1L;

        private final String value;

        public InvalidValue(String value, String reason) {
            super(reason, null, false, false);
            this.value = value;
        }

        public String value() {
            return value;
        }
    }
}
