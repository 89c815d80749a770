package io.kubepekko.api.validation;

import io.kubepekko.api.registry.NameRule;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Kubernetes' string-format checks ({@code k8s.io/apimachinery/pkg/util/validation} and {@code
 * pkg/api/validate/content}). Each check returns the detail messages Kubernetes produces, empty
 * when the value is valid; callers wrap them into {@code FieldError.invalid(path, value, detail)}.
 * Lengths are counted in UTF-8 bytes, as Go's {@code len} does.
 */
public final class NameValidation {
    private NameValidation() {}

    public static final int DNS1123_LABEL_MAX_LENGTH = 63;
    public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
    public static final int DNS1035_LABEL_MAX_LENGTH = 63;
    public static final int LABEL_VALUE_MAX_LENGTH = 63;
    private static final int LABEL_KEY_NAME_MAX_LENGTH = 63;

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_LABEL_MSG =
            "a lowercase RFC 1123 label must consist of lower case "
                    + "alphanumeric characters or '-', and must start and end with an alphanumeric character";
    private static final Pattern DNS1123_LABEL = Pattern.compile("^" + DNS1123_LABEL_FMT + "$");

    private static final String DNS1123_SUBDOMAIN_FMT =
            DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1123_SUBDOMAIN_MSG =
            "a lowercase RFC 1123 subdomain must consist of lower case "
                    + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final Pattern DNS1123_SUBDOMAIN =
            Pattern.compile("^" + DNS1123_SUBDOMAIN_FMT + "$");

    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1035_LABEL_MSG =
            "a DNS-1035 label must consist of lower case alphanumeric "
                    + "characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    private static final Pattern DNS1035_LABEL = Pattern.compile("^" + DNS1035_LABEL_FMT + "$");

    private static final String WILDCARD_DNS1123_SUBDOMAIN_FMT = "\\*\\." + DNS1123_SUBDOMAIN_FMT;
    private static final String WILDCARD_DNS1123_SUBDOMAIN_MSG =
            "a wildcard DNS-1123 subdomain must start with "
                    + "'*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, "
                    + "'-' or '.' and end with an alphanumeric character";
    private static final Pattern WILDCARD_DNS1123_SUBDOMAIN =
            Pattern.compile("^" + WILDCARD_DNS1123_SUBDOMAIN_FMT + "$");

    private static final String LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String LABEL_KEY_MSG =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final Pattern LABEL_KEY = Pattern.compile("^" + LABEL_KEY_FMT + "$");

    private static final String LABEL_VALUE_FMT = "(" + LABEL_KEY_FMT + ")?";
    private static final String LABEL_VALUE_MSG =
            "a valid label must be an empty string or consist of alphanumeric "
                    + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final Pattern LABEL_VALUE = Pattern.compile("^" + LABEL_VALUE_FMT + "$");

    private static final String CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+";
    private static final String CONFIG_MAP_KEY_MSG =
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
    private static final Pattern CONFIG_MAP_KEY = Pattern.compile("^" + CONFIG_MAP_KEY_FMT + "$");

    private static final Pattern PORT_NAME_CHARSET = Pattern.compile("^[-a-z0-9]+$");
    private static final Pattern HAS_LETTER = Pattern.compile("[a-z]");

    private static final String PERCENT_FMT = "[0-9]+%";
    private static final String PERCENT_MSG =
            "a valid percent string must be a numeric string followed by an ending '%'";
    private static final Pattern PERCENT = Pattern.compile("^" + PERCENT_FMT + "$");

    // --- the formats
    // ------------------------------------------------------------------------------

    /** RFC 1123 subdomain: most object names. */
    public static List<String> dns1123Subdomain(String value) {
        return subdomain(value, maxLenChars(DNS1123_SUBDOMAIN_MAX_LENGTH));
    }

    /** RFC 1123 label: namespace names, container and volume names, port names of services. */
    public static List<String> dns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_LABEL_MAX_LENGTH) {
            errs.add(maxLenChars(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                // a valid subdomain that is not a label can only be one with dots
                errs.add("must not contain dots");
            } else {
                errs.add(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
            }
        }
        return errs;
    }

    /** RFC 1035 label: service names. */
    public static List<String> dns1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1035_LABEL_MAX_LENGTH) {
            errs.add(maxLenChars(DNS1035_LABEL_MAX_LENGTH));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errs;
    }

    /** {@code *.example.com}: Ingress hosts. */
    public static List<String> wildcardDns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenChars(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!WILDCARD_DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(
                    regexError(
                            WILDCARD_DNS1123_SUBDOMAIN_MSG,
                            WILDCARD_DNS1123_SUBDOMAIN_FMT,
                            "*.example.com"));
        }
        return errs;
    }

    /** A name usable as one URL path segment (RBAC kinds); empty names are checked elsewhere. */
    public static List<String> pathSegmentName(String value) {
        if (value.equals(".") || value.equals("..")) {
            return List.of("may not be '" + value + "'");
        }
        return pathSegmentPrefix(value);
    }

    /** A prefix of a path-segment name ({@code generateName} of RBAC kinds). */
    public static List<String> pathSegmentPrefix(String value) {
        List<String> errs = new ArrayList<>();
        if (value.contains("/")) {
            errs.add("may not contain '/'");
        }
        if (value.contains("%")) {
            errs.add("may not contain '%'");
        }
        return errs;
    }

    /**
     * A qualified name: label and annotation keys, finalizers, resource names. An optional DNS
     * subdomain prefix and '/', then a name of at most 63 characters.
     */
    public static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part must be non-empty");
                } else {
                    for (String msg :
                            subdomain(prefix, maxLenBytes(DNS1123_SUBDOMAIN_MAX_LENGTH))) {
                        errs.add("prefix part " + msg);
                    }
                }
            }
            default -> {
                errs.add(
                        "a valid label key "
                                + regexError(
                                        LABEL_KEY_MSG,
                                        LABEL_KEY_FMT,
                                        "MyName",
                                        "my.name",
                                        "123-abc")
                                + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errs;
            }
        }
        if (name.isEmpty()) {
            errs.add("name part must be non-empty");
        } else if (byteLength(name) > LABEL_KEY_NAME_MAX_LENGTH) {
            errs.add("name part " + maxLenBytes(LABEL_KEY_NAME_MAX_LENGTH));
        }
        if (!LABEL_KEY.matcher(name).matches()) {
            errs.add(
                    "name part "
                            + regexError(
                                    LABEL_KEY_MSG, LABEL_KEY_FMT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    /**
     * A label value: empty, or up to 63 alphanumerics, '-', '_' and '.' starting and ending
     * alphanumeric.
     */
    public static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > LABEL_VALUE_MAX_LENGTH) {
            errs.add(maxLenBytes(LABEL_VALUE_MAX_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    /** A key of a ConfigMap or Secret ({@code data}, {@code binaryData}). */
    public static List<String> configMapKey(String value) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenChars(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!CONFIG_MAP_KEY.matcher(value).matches()) {
            errs.add(
                    regexError(
                            CONFIG_MAP_KEY_MSG,
                            CONFIG_MAP_KEY_FMT,
                            "key.name",
                            "KEY_NAME",
                            "key-name"));
        }
        if (value.equals(".")) {
            errs.add("must not be '.'");
        } else if (value.equals("..")) {
            errs.add("must not be '..'");
        } else if (value.startsWith("..")) {
            errs.add("must not start with '..'");
        }
        return errs;
    }

    /** An IANA service name used as a port name: at most 15 characters, with a letter, no "--". */
    public static List<String> portName(String port) {
        List<String> errs = new ArrayList<>();
        if (byteLength(port) > 15) {
            errs.add(maxLenChars(15));
        }
        if (!PORT_NAME_CHARSET.matcher(port).matches()) {
            errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!HAS_LETTER.matcher(port).find()) {
            errs.add("must contain at least one letter (a-z)");
        }
        if (port.contains("--")) {
            errs.add("must not contain consecutive hyphens");
        }
        if (!port.isEmpty() && (port.charAt(0) == '-' || port.charAt(port.length() - 1) == '-')) {
            errs.add("must not begin or end with a hyphen");
        }
        return errs;
    }

    /** A non-zero port number. */
    public static List<String> portNumber(long port) {
        return inRange(port, 1, 65535);
    }

    public static List<String> inRange(long value, long min, long max) {
        return value >= min && value <= max ? List.of() : List.of(inclusiveRangeError(min, max));
    }

    /** {@code 25%}. */
    public static List<String> percent(String value) {
        return PERCENT.matcher(value).matches()
                ? List.of()
                : List.of(regexError(PERCENT_MSG, PERCENT_FMT, "1%", "93%"));
    }

    /**
     * The per-kind object name rule. {@code prefix} is true for {@code generateName}, where a
     * trailing '-' is allowed because random characters follow.
     */
    public static List<String> name(NameRule rule, String name, boolean prefix) {
        return switch (rule) {
            case DNS_SUBDOMAIN -> dns1123Subdomain(prefix ? maskTrailingDash(name) : name);
            case DNS_LABEL -> dns1123Label(prefix ? maskTrailingDash(name) : name);
            case DNS1035_LABEL -> dns1035Label(prefix ? maskTrailingDash(name) : name);
            case PATH_SEGMENT -> prefix ? pathSegmentPrefix(name) : pathSegmentName(name);
            case IP_ADDRESS -> IpAddressName.messages(name);
        };
    }

    // --- message builders, shared with kind validation
    // ---------------------------------------------

    /** {@code msg (e.g. 'ex1' or 'ex2', regex used for validation is 'fmt')}. */
    public static String regexError(String msg, String fmt, String... examples) {
        if (examples.length == 0) {
            return msg + " (regex used for validation is '" + fmt + "')";
        }
        StringBuilder s = new StringBuilder(msg).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                s.append(" or ");
            }
            s.append('\'').append(examples[i]).append("', ");
        }
        return s.append("regex used for validation is '").append(fmt).append("')").toString();
    }

    public static String inclusiveRangeError(long lo, long hi) {
        return "must be between " + lo + " and " + hi + ", inclusive";
    }

    /** Object-name length message (apimachinery's util/validation still counts "characters"). */
    public static String maxLenChars(int length) {
        return "must be no more than " + length + " characters";
    }

    /** Label key/value length message (apimachinery's content package counts "bytes"). */
    public static String maxLenBytes(int length) {
        return "must be no more than " + length + " bytes";
    }

    /**
     * The length of {@code s} in UTF-8 bytes, as Go's {@code len} counts a string, without encoding
     * it: it is called for every ConfigMap value and label on each write. An unpaired surrogate
     * counts as the one byte Java's encoder replaces it with ('?').
     */
    public static int byteLength(String s) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c)
                    && i + 1 < n
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2; // the pair is 2 chars and 4 bytes
                i++;
            } else if (Character.isSurrogate(c)) {
                // unpaired: encoded as '?', one byte
            } else {
                bytes += 2;
            }
        }
        return bytes;
    }

    /** Lower-cases ASCII only, as Go's {@code strings.ToLower} does for the names we check. */
    public static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    private static List<String> subdomain(String value, String tooLongMessage) {
        List<String> errs = new ArrayList<>();
        if (byteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(tooLongMessage);
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errs;
    }

    private static String maskTrailingDash(String name) {
        if (name.length() > 1 && name.endsWith("-")) {
            return name.substring(0, name.length() - 2) + "a";
        }
        return name;
    }
}
