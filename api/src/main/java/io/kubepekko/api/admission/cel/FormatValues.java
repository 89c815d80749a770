package io.kubepekko.api.admission.cel;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeType;
import dev.cel.common.values.CelByteString;
import io.kubepekko.api.meta.GoFloats;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * cel-go's runtime clauses of {@code string.format} (its {@code stringFormatter}, strings library
 * version 2, en-US): what each clause accepts, how it prints, and its error when given anything
 * else ({@code decimal clause can only be used on integers, was given double}).
 */
final class FormatValues implements FormatString.Clauses<Object> {

    static final FormatValues INSTANCE = new FormatValues();

    private static final int DEFAULT_PRECISION = 6;

    private FormatValues() {}

    /** Formats {@code format} with {@code args}, or fails in cel-go's words. */
    static String format(String format, List<?> args) throws FormatString.Failure {
        FormatString.Args<Object> list =
                new FormatString.Args<>() {
                    @Override
                    public Object arg(int index) throws FormatString.Failure {
                        if (index >= args.size()) {
                            throw new FormatString.Failure("index " + index + " out of range");
                        }
                        return args.get(index);
                    }

                    @Override
                    public int size() {
                        return args.size();
                    }
                };
        return new FormatString<>(INSTANCE, list).format(format);
    }

    @Override
    public String string(Object arg) throws FormatString.Failure {
        if (arg instanceof List<?> list) {
            return list(list);
        }
        if (arg instanceof Map<?, ?> map) {
            return map(map);
        }
        if (CelTypeNames.isNull(arg)) {
            return "null";
        }
        if (arg instanceof Long
                || arg instanceof UnsignedLong
                || arg instanceof Boolean
                || arg instanceof String) {
            return arg.toString();
        }
        if (arg instanceof Double d) {
            return GoFloats.g(d);
        }
        if (bytes(arg) != null) {
            return utf8(bytes(arg));
        }
        if (CelTimes.isTimestamp(arg)) {
            return CelTimes.timestamp(arg);
        }
        if (CelTimes.isDuration(arg)) {
            return CelTimes.duration(arg);
        }
        if (arg instanceof CelType type) {
            return typeName(type);
        }
        throw new FormatString.Failure(
                "string clause can only be used on strings, bools, bytes, ints, doubles, maps,"
                        + " lists, types, durations, and timestamps, was given "
                        + CelTypeNames.of(arg));
    }

    @Override
    public String decimal(Object arg) throws FormatString.Failure {
        if (arg instanceof Long || arg instanceof UnsignedLong) {
            return arg.toString();
        }
        throw new FormatString.Failure(
                "decimal clause can only be used on integers, was given " + CelTypeNames.of(arg));
    }

    @Override
    public String fixed(Long precision, Object arg) throws FormatString.Failure {
        Double d = floating(arg);
        if (d == null) {
            throw new FormatString.Failure(
                    "fixed-point clause can only be used on doubles, was given "
                            + CelTypeNames.of(arg));
        }
        return EnUsFloats.fixedEnUs(d, precision == null ? DEFAULT_PRECISION : precision);
    }

    @Override
    public String scientific(Long precision, Object arg) throws FormatString.Failure {
        Double d = floating(arg);
        if (d == null) {
            throw new FormatString.Failure(
                    "scientific clause can only be used on doubles, was given "
                            + CelTypeNames.of(arg));
        }
        return EnUsFloats.scientificEnUs(d, precision == null ? DEFAULT_PRECISION : precision);
    }

    @Override
    public String binary(Object arg) throws FormatString.Failure {
        if (arg instanceof Boolean b) {
            return b ? "1" : "0";
        }
        BigInteger n = integer(arg);
        if (n == null) {
            throw new FormatString.Failure(
                    "only integers and bools can be formatted as binary, was given "
                            + CelTypeNames.of(arg));
        }
        return n.toString(2);
    }

    @Override
    public String hex(boolean upper, Object arg) throws FormatString.Failure {
        String hex;
        BigInteger n = integer(arg);
        if (n != null) {
            hex = n.toString(16);
        } else if (arg instanceof String s) {
            hex = HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
        } else if (bytes(arg) != null) {
            hex = HexFormat.of().formatHex(bytes(arg));
        } else {
            throw new FormatString.Failure(
                    "only integers, byte buffers, and strings can be formatted as hex, was given "
                            + CelTypeNames.of(arg));
        }
        return upper ? hex.toUpperCase(Locale.ROOT) : hex;
    }

    @Override
    public String octal(Object arg) throws FormatString.Failure {
        BigInteger n = integer(arg);
        if (n == null) {
            throw new FormatString.Failure(
                    "octal clause can only be used on integers, was given " + CelTypeNames.of(arg));
        }
        return n.toString(8);
    }

    /** A list as cel-go prints it: its members as CEL literals. */
    private String list(List<?> list) throws FormatString.Failure {
        List<String> members = new ArrayList<>(list.size());
        for (Object member : list) {
            members.add(literal(member));
        }
        return "[" + String.join(", ", members) + "]";
    }

    /** A map as cel-go prints it: literal keys and values, sorted by the printed key. */
    private String map(Map<?, ?> map) throws FormatString.Failure {
        List<String[]> pairs = new ArrayList<>(map.size());
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object key = e.getKey();
            String printedKey;
            if (key instanceof String || key instanceof Boolean) {
                printedKey = quoteIfString(key, string(key));
            } else if (key instanceof Long || key instanceof UnsignedLong) {
                printedKey = key.toString();
            } else {
                throw new FormatString.Failure(
                        "no formatting function for map key of type " + CelTypeNames.of(key));
            }
            pairs.add(new String[] {printedKey, literal(e.getValue())});
        }
        // Go compares strings bytewise, which is code point order.
        pairs.sort((a, b) -> compareCodePoints(a[0], b[0]));
        List<String> entries = new ArrayList<>(pairs.size());
        for (String[] pair : pairs) {
            entries.add(pair[0] + ":" + pair[1]);
        }
        return "{" + String.join(", ", entries) + "}";
    }

    /** cel-go's {@code clauseForType} then {@code quoteForCEL}: a member of a list or map. */
    private String literal(Object member) throws FormatString.Failure {
        if (member instanceof Long || member instanceof UnsignedLong) {
            return member.toString();
        }
        if (member instanceof Double d) {
            String fixed = GoFloats.fixedPlain(d, DEFAULT_PRECISION);
            return Double.isFinite(d) ? fixed : GoQuote.quote(fixed);
        }
        if (CelTimes.isTimestamp(member)) {
            return "timestamp(" + GoQuote.quote(CelTimes.timestamp(member)) + ")";
        }
        if (CelTimes.isDuration(member)) {
            return "duration(" + GoQuote.quote(CelTimes.duration(member)) + ")";
        }
        if (member instanceof List<?> || member instanceof Map<?, ?>) {
            return string(member);
        }
        if (member instanceof String
                || member instanceof Boolean
                || member instanceof CelType
                || CelTypeNames.isNull(member)) {
            return quoteIfString(member, string(member));
        }
        if (bytes(member) != null) {
            return "b" + GoQuote.quote(string(member));
        }
        throw new FormatString.Failure("no formatting function for " + CelTypeNames.of(member));
    }

    private static String quoteIfString(Object value, String printed) {
        return value instanceof String ? GoQuote.quote(printed) : printed;
    }

    /** A double, or one of the strings cel-go's %f and %e also take for the special values. */
    private static Double floating(Object arg) {
        if (arg instanceof Double d) {
            return d;
        }
        if (arg instanceof String s) {
            return switch (s) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> null;
            };
        }
        return null;
    }

    private static BigInteger integer(Object arg) {
        if (arg instanceof Long l) {
            return BigInteger.valueOf(l);
        }
        if (arg instanceof UnsignedLong u) {
            return u.bigIntegerValue();
        }
        return null;
    }

    private static byte[] bytes(Object arg) {
        if (arg instanceof ByteString b) {
            return b.toByteArray();
        }
        if (arg instanceof CelByteString b) {
            return b.toByteArray();
        }
        return null;
    }

    /** cel-go's bytes-to-string conversion, its error as cel-go's %s clause reports it. */
    private static String utf8(byte[] bytes) throws FormatString.Failure {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new FormatString.Failure(
                    "could not convert argument \"invalid UTF-8 in bytes, cannot convert to"
                            + " string\" to string");
        }
    }

    /**
     * A type value prints as the type's name ({@code type(1)} as {@code int}). cel-java's value of
     * the type {@code type} itself ({@code type(string)}) is its type of dyn.
     */
    private static String typeName(CelType type) {
        if (!(type instanceof TypeType t)) {
            return type.name();
        }
        return t.type().equals(SimpleType.DYN) ? "type" : t.type().name();
    }

    private static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
