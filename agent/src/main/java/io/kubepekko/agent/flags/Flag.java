package io.kubepekko.agent.flags;

import java.util.List;
import java.util.Objects;

/**
 * One command-line flag, declared once as data: its name, the type word the kubelet's help prints for it,
 * its default (as text, converted like a value given on the command line, so the default cannot disagree
 * with what the flag accepts), its help, and how its given values become a typed value.
 *
 * @param name          the long name without dashes, as the kubelet names it
 * @param type          pflag's type word in the help ({@code string}, {@code duration}, ...); empty for booleans
 * @param defaultText   the value used when the flag is absent, or {@code null} for none
 * @param help          one sentence for {@code --help}
 * @param boolean_      whether it is a boolean flag ({@code --flag} alone means true)
 * @param repeatable    whether every occurrence counts (maps); otherwise the last one wins, as in pflag
 * @param conversion    from the given texts (the default's when absent) to the value
 */
public record Flag<T>(String name, String type, String defaultText, String help, boolean boolean_, boolean repeatable,
                      Conversion<T> conversion) {

    public Flag {
        Objects.requireNonNull(name);
        Objects.requireNonNull(conversion);
    }

    /** Turns the texts given for a flag (one for a single-valued flag) into its value. */
    @FunctionalInterface
    public interface Conversion<T> {
        T convert(List<String> given) throws InvalidValue;
    }

    /** A text a flag does not accept, with the reason in the kubelet's words. */
    public static final class InvalidValue extends Exception {
        private final String value;

        public InvalidValue(String value, String reason) {
            super(reason, null, false, false);
            this.value = value;
        }

        public String value() {
            return value;
        }
    }

    /** The flag as written on the command line. */
    public String option() {
        return "--" + name;
    }
}
