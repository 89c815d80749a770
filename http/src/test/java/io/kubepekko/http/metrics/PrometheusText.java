package io.kubepekko.http.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reader of Prometheus' text exposition format 0.0.4, as a scraper reads it: every line is
 * a {@code # HELP}, a {@code # TYPE} or a sample; a sample's name belongs to the family TYPE
 * announced before it (with {@code _bucket}, {@code _sum}, {@code _count} for histograms, {@code
 * _sum} and {@code _count} for summaries); label values are unescaped; anything else fails the
 * parse.
 */
public final class PrometheusText {

    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE =
            Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|histogram|summary|untyped)");
    private static final Pattern SAMPLE =
            Pattern.compile("(" + NAME + ")(\\{(.*)\\})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL =
            Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");

    /** One sample: its name, labels and value. */
    public record Sample(String name, Map<String, String> labels, double value) {}

    private final Map<String, String> types = new HashMap<>();
    private final Map<String, String> helps = new HashMap<>();
    private final List<Sample> samples = new ArrayList<>();

    private PrometheusText() {}

    /**
     * Parses a whole exposition.
     *
     * @throws IllegalArgumentException naming the first line that is not the format
     */
    public static PrometheusText parse(String text) {
        PrometheusText out = new PrometheusText();
        String family = null;
        String type = null;
        int n = 0;
        for (String line : text.split("\n", -1)) {
            n++;
            if (line.isEmpty()) {
                continue;
            }
            Matcher m;
            if ((m = HELP.matcher(line)).matches()) {
                out.helps.put(m.group(1), m.group(2));
            } else if ((m = TYPE.matcher(line)).matches()) {
                if (out.types.put(m.group(1), m.group(2)) != null) {
                    throw new IllegalArgumentException("line " + n + ": family typed twice");
                }
                family = m.group(1);
                type = m.group(2);
            } else if (line.startsWith("#")) {
                throw new IllegalArgumentException("line " + n + ": unknown comment: " + line);
            } else if ((m = SAMPLE.matcher(line)).matches()) {
                String name = m.group(1);
                if (family == null || !belongs(name, family, type)) {
                    throw new IllegalArgumentException(
                            "line " + n + ": " + name + " outside its family " + family);
                }
                out.samples.add(new Sample(name, labels(m.group(3), n), value(m.group(4), n)));
            } else {
                throw new IllegalArgumentException("line " + n + ": not a sample: " + line);
            }
        }
        return out;
    }

    private static boolean belongs(String name, String family, String type) {
        if (name.equals(family)) {
            return !type.equals("histogram");
        }
        return switch (type) {
            case "histogram" ->
                    name.equals(family + "_bucket")
                            || name.equals(family + "_sum")
                            || name.equals(family + "_count");
            case "summary" -> name.equals(family + "_sum") || name.equals(family + "_count");
            default -> false;
        };
    }

    private static Map<String, String> labels(String text, int line) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (text == null || text.isEmpty()) {
            return labels;
        }
        Matcher m = LABEL.matcher(text);
        int at = 0;
        while (at < text.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException("line " + line + ": bad labels: " + text);
            }
            String value =
                    m.group(2).replace("\\n", "\n").replace("\\\"", "\"").replace("\\\\", "\\");
            if (labels.put(m.group(1), value) != null) {
                throw new IllegalArgumentException("line " + line + ": label twice: " + text);
            }
            at = m.end();
        }
        return labels;
    }

    private static double value(String text, int line) {
        switch (text) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(text);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("line " + line + ": bad value: " + text);
                }
        }
    }

    /** The TYPE of a family, or null. */
    public String type(String family) {
        return types.get(family);
    }

    /** The HELP of a family, or null. */
    public String help(String family) {
        return helps.get(family);
    }

    /** The samples named {@code name} whose labels include all of {@code labels}. */
    public List<Sample> samples(String name, Map<String, String> labels) {
        List<Sample> out = new ArrayList<>();
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
                out.add(s);
            }
        }
        return out;
    }

    /** The sum of the samples {@link #samples} finds; 0 when none. */
    public double value(String name, Map<String, String> labels) {
        double sum = 0;
        for (Sample s : samples(name, labels)) {
            sum += s.value();
        }
        return sum;
    }

    /** Every sample, in the order written. */
    public List<Sample> samples() {
        return List.copyOf(samples);
    }
}
