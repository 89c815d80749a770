package io.kubepekko.api.admission.cel;

import com.google.re2j.Pattern;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Whether Go's {@code regexp.Compile} takes a pattern, as cel-go's regex literal check asks. RE2J
 * reads Go's syntax, but lacks two of Go's parser limits, which this scan of the pattern applies
 * first: nested repetitions may not multiply past 1,000 copies ({@code (a{100}){100}} is Go's
 * {@code invalid repeat count}), and groups may not nest 1,000 deep (Go's {@code expression nests
 * too deeply}). It also bounds the program RE2J would build: a pattern whose estimated program
 * passes 100,000 instructions is refused, as Go refuses past about 3.3 million ({@code expression
 * too large}) — lower here because RE2J takes seconds and hundreds of megabytes for those, and a
 * configuration's write must not.
 */
final class GoRegex {

    /** Go's bound on a repetition's count and on nested repetitions' product. */
    private static final int MAX_REPEAT = 1000;

    /**
     * Go's bound on the parse tree's height, here on groups' nesting: 1,000 nested groups around a
     * literal make a tree 1,001 high. (Go's non-capturing groups add no height; here they count.)
     */
    private static final int MAX_DEPTH = 1000;

    /** The largest program (in estimated instructions) compiled. */
    static final long MAX_PROGRAM = 100_000;

    private GoRegex() {}

    static boolean compiles(String pattern) {
        if (!withinLimits(pattern)) {
            return false;
        }
        try {
            Pattern.compile(pattern);
            return true;
        } catch (RuntimeException e) {
            // PatternSyntaxException, and RE2J's internal errors on some malformed patterns.
            return false;
        }
    }

    /** A group being read: what it holds so far, and the item a repetition would apply to. */
    private static final class Group {
        private long size;
        private long product = 1;
        private long lastSize;
        private long lastProduct = 1;
        private boolean hasLast;

        void add(long itemSize, long itemProduct) {
            fold();
            lastSize = itemSize;
            lastProduct = itemProduct;
            hasLast = true;
        }

        void fold() {
            if (hasLast) {
                size = saturated(size + lastSize);
                product = Math.max(product, lastProduct);
                hasLast = false;
            }
        }
    }

    /**
     * False when the pattern breaks one of Go's limits, the program bound, or is malformed in a way
     * the scan sees (unbalanced groups, an unterminated class or escape); true leaves the rest to
     * RE2J.
     */
    static boolean withinLimits(String p) {
        Deque<Group> groups = new ArrayDeque<>();
        groups.push(new Group());
        int n = p.length();
        int i = 0;
        while (i < n) {
            Group g = groups.peek();
            char c = p.charAt(i);
            switch (c) {
                case '\\' -> {
                    if (p.startsWith("\\Q", i)) {
                        int end = p.indexOf("\\E", i + 2);
                        int stop = end < 0 ? n : end;
                        for (int k = i + 2; k < stop; k++) {
                            g.add(1, 1);
                        }
                        i = end < 0 ? n : end + 2;
                    } else {
                        i = skipEscape(p, i);
                        if (i < 0) {
                            return false;
                        }
                        g.add(1, 1);
                    }
                }
                case '[' -> {
                    i = skipClass(p, i);
                    if (i < 0) {
                        return false;
                    }
                    g.add(1, 1);
                }
                case '(' -> {
                    int body = groupBody(p, i);
                    if (body < 0) {
                        return false;
                    }
                    if (p.charAt(body - 1) == ')') {
                        // (?flags): no group.
                        i = body;
                    } else {
                        // The new group's depth is the stack's size (the top level is 0); Go's
                        // parse tree around a literal is one taller than its groups' nesting.
                        if (groups.size() >= MAX_DEPTH) {
                            return false;
                        }
                        groups.push(new Group());
                        i = body;
                    }
                }
                case ')' -> {
                    if (groups.size() == 1) {
                        return false;
                    }
                    Group closed = groups.pop();
                    closed.fold();
                    groups.peek().add(saturated(closed.size + 2), closed.product);
                    i++;
                }
                case '|' -> {
                    g.fold();
                    g.size = saturated(g.size + 1);
                    i++;
                }
                case '*', '+', '?' -> {
                    if (!g.hasLast) {
                        return false;
                    }
                    g.lastSize = saturated(g.lastSize + 1);
                    i++;
                }
                case '{' -> {
                    int[] repeat = repeat(p, i);
                    if (repeat == null) {
                        g.add(1, 1);
                        i++;
                    } else {
                        if (!g.hasLast || !repeatApplies(g, repeat[0], repeat[1])) {
                            return false;
                        }
                        i = repeat[2];
                    }
                }
                default -> {
                    g.add(1, 1);
                    i++;
                }
            }
        }
        if (groups.size() != 1) {
            return false;
        }
        Group top = groups.pop();
        top.fold();
        return top.size <= MAX_PROGRAM;
    }

    /**
     * Go's repetition {@code {min,max}} (max -1 when open) on the group's last item: counts up to
     * 1,000, and the check of Go's {@code repeatIsValid} when either is 2 or more — this count
     * times the largest product of the item's own repetitions may not pass 1,000 ({@code {0}} makes
     * its item's count nothing to its ancestors).
     */
    private static boolean repeatApplies(Group g, int min, int max) {
        if (min > MAX_REPEAT || max > MAX_REPEAT || (max >= 0 && min > max)) {
            return false;
        }
        long count = max < 0 ? min : max;
        long factor = Math.max(count, 1);
        if ((min >= 2 || max >= 2) && factor * g.lastProduct > MAX_REPEAT) {
            return false;
        }
        g.lastProduct = max == 0 ? 1 : factor * g.lastProduct;
        long copies = max < 0 ? min + 1L : Math.max(max, 1);
        g.lastSize = saturated(g.lastSize * copies + 1);
        return true;
    }

    /**
     * {@code {n}}, {@code {n,}} or {@code {n,m}} at {@code i}: min, max (-1 when open) and the
     * index after it; null when the brace is a literal, as Go reads it.
     */
    private static int[] repeat(String p, int i) {
        int j = i + 1;
        int minStart = j;
        while (j < p.length() && Character.isDigit(p.charAt(j))) {
            j++;
        }
        if (j == minStart || j >= p.length()) {
            return null;
        }
        int min = count(p, minStart, j);
        int max = min;
        if (p.charAt(j) == ',') {
            j++;
            int maxStart = j;
            while (j < p.length() && Character.isDigit(p.charAt(j))) {
                j++;
            }
            max = j == maxStart ? -1 : count(p, maxStart, j);
        }
        if (j >= p.length() || p.charAt(j) != '}') {
            return null;
        }
        return new int[] {min, max, j + 1};
    }

    /** A count, capped past Go's bound so that long digit strings cannot overflow. */
    private static int count(String p, int from, int to) {
        if (to - from > 6) {
            return MAX_REPEAT + 1;
        }
        return Integer.parseInt(p.substring(from, to));
    }

    /**
     * The index after the group's opening ({@code (}, {@code (?:}, {@code (?P<name>}, {@code
     * (?<name>}, {@code (?i:}), or after a flags-only {@code (?i)}; -1 when unterminated.
     */
    private static int groupBody(String p, int i) {
        if (!p.startsWith("(?", i)) {
            return i + 1;
        }
        if (p.startsWith("(?P<", i) || p.startsWith("(?<", i)) {
            int close = p.indexOf('>', i);
            return close < 0 ? -1 : close + 1;
        }
        for (int j = i + 2; j < p.length(); j++) {
            char c = p.charAt(j);
            if (c == ':' || c == ')') {
                return j + 1;
            }
        }
        return -1;
    }

    /** The index after the escape at {@code i}; -1 when the pattern ends inside it. */
    private static int skipEscape(String p, int i) {
        int n = p.length();
        if (i + 1 >= n) {
            return -1;
        }
        char c = p.charAt(i + 1);
        if ((c == 'p' || c == 'P' || c == 'x') && i + 2 < n && p.charAt(i + 2) == '{') {
            int close = p.indexOf('}', i + 3);
            return close < 0 ? -1 : close + 1;
        }
        if (c == 'p' || c == 'P') {
            return i + 3 <= n ? i + 3 : -1;
        }
        if (c == 'x') {
            return i + 4 <= n ? i + 4 : -1;
        }
        return i + 2;
    }

    /** The index after the class at {@code i} ({@code [^]a-z[:alpha:]\]]}); -1 unterminated. */
    private static int skipClass(String p, int i) {
        int n = p.length();
        int j = i + 1;
        if (j < n && p.charAt(j) == '^') {
            j++;
        }
        if (j < n && p.charAt(j) == ']') {
            j++;
        }
        while (j < n && p.charAt(j) != ']') {
            if (p.charAt(j) == '\\') {
                j = skipEscape(p, j);
                if (j < 0) {
                    return -1;
                }
            } else if (p.startsWith("[:", j)) {
                int close = p.indexOf(":]", j + 2);
                j = close < 0 ? j + 1 : close + 2;
            } else {
                j++;
            }
        }
        return j < n ? j + 1 : -1;
    }

    private static long saturated(long size) {
        return Math.min(size, MAX_PROGRAM + 1);
    }
}
