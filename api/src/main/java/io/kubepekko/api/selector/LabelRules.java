package io.kubepekko.api.selector;

import io.kubepekko.api.validation.NameValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Label key and value syntax, with the explanations apimachinery's {@code content.IsLabelKey} and
 * {@code content.IsLabelValue} give: selector errors quote them verbatim, so the wording (double
 * spaces included) is part of the contract.
 */
final class LabelRules {
    private LabelRules() {}

    private static final String KEY_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern KEY = Pattern.compile(KEY_FORMAT);
    private static final String KEY_MESSAGE =
            "must consist of alphanumeric characters, '-', '_' or '.', "
                    + "and must start and end with an alphanumeric character";
    private static final int KEY_NAME_MAX = 63;

    private static final String VALUE_FORMAT = "(" + KEY_FORMAT + ")?";
    private static final Pattern VALUE = Pattern.compile(VALUE_FORMAT);
    private static final String VALUE_MESSAGE =
            "a valid label must be an empty string or consist of alphanumeric "
                    + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final int VALUE_MAX = 63;

    private static final String SUBDOMAIN_LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String SUBDOMAIN_FORMAT =
            SUBDOMAIN_LABEL + "(\\." + SUBDOMAIN_LABEL + ")*";
    private static final Pattern SUBDOMAIN = Pattern.compile(SUBDOMAIN_FORMAT);
    private static final String SUBDOMAIN_MESSAGE =
            "a lowercase RFC 1123 subdomain must consist of lower case "
                    + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final int SUBDOMAIN_MAX = 253;

    /** Problems with a label key ({@code [prefix/]name}); empty when valid. */
    static List<String> keyProblems(String key) {
        List<String> problems = new ArrayList<>();
        String[] parts = key.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                problems.add("prefix part must be non-empty");
            } else {
                for (String p : subdomainProblems(prefix)) {
                    problems.add("prefix part " + p);
                }
            }
        } else {
            problems.add(
                    "a valid label key "
                            + regexError(KEY_MESSAGE, KEY_FORMAT, "MyName", "my.name", "123-abc")
                            + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return problems;
        }
        if (name.isEmpty()) {
            problems.add("name part must be non-empty");
        } else if (byteLength(name) > KEY_NAME_MAX) {
            problems.add("name part " + maxLength(KEY_NAME_MAX));
        }
        if (!KEY.matcher(name).matches()) {
            problems.add(
                    "name part "
                            + regexError(KEY_MESSAGE, KEY_FORMAT, "MyName", "my.name", "123-abc"));
        }
        return problems;
    }

    /** Problems with a label value; empty when valid (the empty string is valid). */
    static List<String> valueProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > VALUE_MAX) {
            problems.add(maxLength(VALUE_MAX));
        }
        if (!VALUE.matcher(value).matches()) {
            problems.add(regexError(VALUE_MESSAGE, VALUE_FORMAT, "MyValue", "my_value", "12345"));
        }
        return problems;
    }

    private static List<String> subdomainProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > SUBDOMAIN_MAX) {
            problems.add(maxLength(SUBDOMAIN_MAX));
        }
        if (!SUBDOMAIN.matcher(value).matches()) {
            problems.add(regexError(SUBDOMAIN_MESSAGE, SUBDOMAIN_FORMAT, "example.com"));
        }
        return problems;
    }

    private static String maxLength(int max) {
        return "must be no more than " + max + " bytes";
    }

    /**
     * apimachinery's {@code RegexError}: each example is followed by {@code ", "}, joined by {@code
     * " or "}.
     */
    private static String regexError(String message, String format, String... examples) {
        StringBuilder s = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                s.append(" or ");
            }
            s.append('\'').append(examples[i]).append("', ");
        }
        return s.append("regex used for validation is '").append(format).append("')").toString();
    }

    /** Kubernetes limits lengths in bytes, as Go's {@code len} counts them. */
    private static int byteLength(String s) {
        return NameValidation.byteLength(s);
    }
}
