package io.kubepekko.api.admission.cel;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A semantic version as kube's CEL semver library reads it (the {@code blang/semver/v4} parser it
 * uses): {@code major.minor.patch[-pre][+build]}, numbers without leading zeros, errors in that
 * parser's words. Equality and order are semver's precedence: build metadata does not count.
 */
record SemVersion(long major, long minor, long patch, List<Object> pre)
        implements Comparable<SemVersion> {

    private static final String NUMBERS = "0123456789";
    private static final String ALPHANUM =
            "-abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" + NUMBERS;
    private static final BigInteger MAX_UINT64 =
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /** A text the parser refuses, in its words. */
    static final class ParseException extends Exception {
        private static final long serialVersionUID = 1L;

        ParseException(String message) {
            super(message);
        }
    }

    /** {@code semver.Parse}. */
    static SemVersion parse(String s) throws ParseException {
        if (s.isEmpty()) {
            throw new ParseException("Version string empty");
        }
        String[] parts = s.split("\\.", 3);
        if (parts.length != 3) {
            throw new ParseException("No Major.Minor.Patch elements found");
        }
        long major = number(parts[0], "major number", "Major number");
        long minor = number(parts[1], "minor number", "Minor number");
        String patchText = parts[2];
        List<String> build = List.of();
        int plus = patchText.indexOf('+');
        if (plus >= 0) {
            build = List.of(patchText.substring(plus + 1).split("\\.", -1));
            patchText = patchText.substring(0, plus);
        }
        List<String> preText = List.of();
        int dash = patchText.indexOf('-');
        if (dash >= 0) {
            preText = List.of(patchText.substring(dash + 1).split("\\.", -1));
            patchText = patchText.substring(0, dash);
        }
        long patch = number(patchText, "patch number", "Patch number");
        List<Object> pre = new ArrayList<>();
        for (String p : preText) {
            pre.add(preRelease(p));
        }
        for (String b : build) {
            if (b.isEmpty()) {
                throw new ParseException("Build meta data is empty");
            }
            if (!only(b, ALPHANUM)) {
                throw new ParseException(
                        "Invalid character(s) found in build meta data " + GoQuote.quote(b));
            }
        }
        return new SemVersion(major, minor, patch, List.copyOf(pre));
    }

    /**
     * kube's {@code normalizeAndParse}: no leading "v", leading zeros dropped, a missing minor or
     * patch made 0.
     */
    static SemVersion parseNormalized(String s) throws ParseException {
        String t = s.startsWith("v") ? s.substring(1) : s;
        List<String> parts = new ArrayList<>(List.of(t.split("\\.", 3)));
        for (int i = 0; i < parts.size(); i++) {
            String p = parts.get(i);
            if (p.length() > 1) {
                p = p.replaceFirst("^0+", "");
                if (p.isEmpty() || NUMBERS.indexOf(p.charAt(0)) < 0) {
                    p = "0" + p;
                }
                parts.set(i, p);
            }
        }
        if (parts.size() < 3) {
            String last = parts.get(parts.size() - 1);
            if (last.contains("+") || last.contains("-")) {
                throw new ParseException("short version cannot contain PreRelease/Build meta data");
            }
            while (parts.size() < 3) {
                parts.add("0");
            }
        }
        return parse(String.join(".", parts));
    }

    private static long number(String text, String lower, String upper) throws ParseException {
        if (!only(text, NUMBERS)) {
            throw new ParseException(
                    "Invalid character(s) found in " + lower + " " + GoQuote.quote(text));
        }
        if (text.length() > 1 && text.charAt(0) == '0') {
            throw new ParseException(
                    upper + " must not contain leading zeroes " + GoQuote.quote(text));
        }
        return uint64(text);
    }

    /** Go's {@code strconv.ParseUint(s, 10, 64)}, its errors in its words. */
    private static long uint64(String text) throws ParseException {
        if (text.isEmpty()) {
            throw new ParseException("strconv.ParseUint: parsing \"\": invalid syntax");
        }
        BigInteger v = new BigInteger(text);
        if (v.compareTo(MAX_UINT64) > 0) {
            throw new ParseException(
                    "strconv.ParseUint: parsing " + GoQuote.quote(text) + ": value out of range");
        }
        return v.longValue();
    }

    private static Object preRelease(String s) throws ParseException {
        if (s.isEmpty()) {
            throw new ParseException("Prerelease is empty");
        }
        if (only(s, NUMBERS)) {
            if (s.length() > 1 && s.charAt(0) == '0') {
                throw new ParseException(
                        "Numeric PreRelease version must not contain leading zeroes "
                                + GoQuote.quote(s));
            }
            return uint64(s);
        }
        if (only(s, ALPHANUM)) {
            return s;
        }
        throw new ParseException("Invalid character(s) found in prerelease " + GoQuote.quote(s));
    }

    private static boolean only(String s, String set) {
        return s.chars().allMatch(c -> set.indexOf(c) >= 0);
    }

    /** semver precedence: numbers (unsigned), then a release above its pre-releases. */
    @Override
    public int compareTo(SemVersion o) {
        int c = Long.compareUnsigned(major, o.major);
        if (c == 0) {
            c = Long.compareUnsigned(minor, o.minor);
        }
        if (c == 0) {
            c = Long.compareUnsigned(patch, o.patch);
        }
        if (c != 0) {
            return Integer.signum(c);
        }
        if (pre.isEmpty() || o.pre.isEmpty()) {
            return Boolean.compare(pre.isEmpty(), o.pre.isEmpty());
        }
        for (int i = 0; i < pre.size() && i < o.pre.size(); i++) {
            int p = comparePre(pre.get(i), o.pre.get(i));
            if (p != 0) {
                return p;
            }
        }
        return Integer.signum(Integer.compare(pre.size(), o.pre.size()));
    }

    private static int comparePre(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Integer.signum(Long.compareUnsigned(x, y));
        }
        if (a instanceof String x && b instanceof String y) {
            return Integer.signum(x.compareTo(y));
        }
        // A numeric identifier is lower than an alphanumeric one.
        return a instanceof Long ? -1 : 1;
    }
}
