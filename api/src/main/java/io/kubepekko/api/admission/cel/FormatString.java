package io.kubepekko.api.admission.cel;

import java.nio.charset.StandardCharsets;

/**
 * The clause syntax of cel-go's {@code string.format} as kube's strings library (version 2) reads
 * it: {@code %%}, and {@code %s}, {@code %d}, {@code %f}, {@code %e}, {@code %b}, {@code %x},
 * {@code %X}, {@code %o}, the floating clauses with an optional {@code .precision}. One walk serves
 * both the evaluation ({@link FormatValues}) and the compile-time check of literal calls ({@link
 * FormatCallCheck}); errors are cel-go's words.
 *
 * @param <A> an argument: a value when evaluating, an expression when checking
 */
final class FormatString<A> {

    /** What each clause does with its argument; an error is a {@link Failure}. */
    interface Clauses<A> {
        String string(A arg) throws Failure;

        String decimal(A arg) throws Failure;

        /** {@code %f}; precision null when the clause has none. */
        String fixed(Long precision, A arg) throws Failure;

        /** {@code %e}; precision null when the clause has none. */
        String scientific(Long precision, A arg) throws Failure;

        String binary(A arg) throws Failure;

        String hex(boolean upper, A arg) throws Failure;

        String octal(A arg) throws Failure;
    }

    /** The arguments. */
    interface Args<A> {
        /** The index-th argument, or cel-go's {@code index N out of range}. */
        A arg(int index) throws Failure;

        int size();
    }

    /**
     * A formatting error in cel-go's words, with the expression it is about when checking (-1 when
     * evaluating, or when it is about the whole call).
     */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        private final long exprId;

        Failure(String message) {
            this(-1, message);
        }

        Failure(long exprId, String message) {
            super(message, null, false, false);
            this.exprId = exprId;
        }

        long exprId() {
            return exprId;
        }

        /** cel-go's wrapping: the same expression, the context before the message. */
        Failure wrapped(String context) {
            return new Failure(exprId, context + ": " + getMessage());
        }
    }

    private final Clauses<A> clauses;
    private final Args<A> args;

    FormatString(Clauses<A> clauses, Args<A> args) {
        this.clauses = clauses;
        this.args = args;
    }

    /** cel-go's {@code parseFormatString}. */
    String format(String format) throws Failure {
        StringBuilder out = new StringBuilder();
        int argIndex = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '%') {
                out.append(c);
                i++;
                continue;
            }
            if (i + 1 < format.length() && format.charAt(i + 1) == '%') {
                out.append('%');
                i += 2;
                continue;
            }
            // cel-go asks for the argument first: too few arguments is "index N out of range"
            // even for a clause cut short.
            A arg = args.arg(argIndex);
            if (i + 1 >= format.length()) {
                throw new Failure("unexpected end of string");
            }
            if (argIndex >= args.size()) {
                throw new Failure("index " + argIndex + " out of range");
            }
            i = clause(format, i + 1, arg, out);
            argIndex++;
        }
        return out.toString();
    }

    /** Formats the clause starting at {@code start} (after the %); answers where it ends. */
    private int clause(String format, int start, A arg, StringBuilder out) throws Failure {
        int i = start;
        Long precision = null;
        if (format.charAt(i) == '.') {
            i++;
            int digits = i;
            while (true) {
                if (i >= format.length()) {
                    throw parseError(
                            "error while parsing precision: could not find end of precision"
                                    + " specifier");
                }
                char d = format.charAt(i);
                if (d < '0' || d > '9') {
                    break;
                }
                i++;
            }
            precision = atoi(format.substring(digits, i));
        }
        char verb = format.charAt(i);
        if ("sdfebxXo".indexOf(verb) < 0) {
            throw parseError("unrecognized formatting clause \"" + firstByte(format, i) + "\"");
        }
        String formatted;
        try {
            formatted =
                    switch (verb) {
                        case 's' -> clauses.string(arg);
                        case 'd' -> clauses.decimal(arg);
                        case 'f' -> clauses.fixed(precision, arg);
                        case 'e' -> clauses.scientific(precision, arg);
                        case 'b' -> clauses.binary(arg);
                        case 'x', 'X' -> clauses.hex(verb == 'X', arg);
                        default -> clauses.octal(arg);
                    };
        } catch (Failure f) {
            throw f.wrapped("error during formatting");
        }
        out.append(formatted);
        return i + 1;
    }

    /** Go's {@code strconv.Atoi} on the precision's digits, its errors wrapped as cel-go's. */
    private static long atoi(String digits) throws Failure {
        String why;
        if (digits.isEmpty()) {
            why = "invalid syntax";
        } else {
            try {
                return Long.parseLong(digits);
            } catch (NumberFormatException e) {
                why = "value out of range";
            }
        }
        throw parseError(
                "error while parsing precision: error while converting precision to integer:"
                        + " strconv.Atoi: parsing "
                        + GoQuote.quote(digits)
                        + ": "
                        + why);
    }

    private static Failure parseError(String message) {
        return new Failure("could not parse formatting clause: " + message);
    }

    /**
     * cel-go reads the clause as one byte of the UTF-8 format and prints it as a rune: a character
     * past ASCII shows as its first byte's Latin-1 character.
     */
    private static char firstByte(String format, int at) {
        int c = format.codePointAt(at);
        if (c < 0x80) {
            return (char) c;
        }
        byte[] utf8 = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8);
        return (char) (utf8[0] & 0xff);
    }
}
