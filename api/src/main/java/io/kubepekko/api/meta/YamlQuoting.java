package io.kubepekko.api.meta;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.util.Locale;
import java.util.Set;

/**
 * Quotes every string a YAML 1.1 reader could take for something else. Go clients read YAML with
 * go-yaml (through sigs.k8s.io/yaml), which resolves plain scalars as YAML 1.1 does: {@code 2},
 * {@code 0x1F}, {@code 1_000}, {@code 12:30} are numbers, {@code 2026-11-28T09:01:50Z} a timestamp,
 * {@code yes}/{@code on}/{@code y} booleans. Written plain, a {@code resourceVersion: 2} or a label
 * {@code "v": "1.5"} would come back as a number and fail to decode into the string field it is;
 * kube-apiserver's YAML quotes them. Jackson's own check misses most of these forms, so any string
 * that begins like a number, a timestamp or a sign is quoted, and the YAML 1.1 words; quoting a
 * string that did not need it changes nothing for a reader.
 */
final class YamlQuoting extends StringQuotingChecker.Default {
    private static final long serialVersionUID = 1L;

    private static final Set<String> WORDS =
            Set.of("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "<<");

    static final YamlQuoting INSTANCE = new YamlQuoting();

    @Override
    public boolean needToQuoteName(String name) {
        return super.needToQuoteName(name) || readAsOtherThanString(name);
    }

    @Override
    public boolean needToQuoteValue(String value) {
        return super.needToQuoteValue(value) || readAsOtherThanString(value);
    }

    static boolean readAsOtherThanString(String s) {
        if (s.isEmpty()) {
            return true;
        }
        char c = s.charAt(0);
        if ((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.') {
            return true;
        }
        return s.length() <= 5 && WORDS.contains(s.toLowerCase(Locale.ROOT));
    }
}
