package io.kubepekko.api.status;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The warnings of one response as kube-apiserver's warning recorder (its {@code
 * WithWarningRecorder} filter) writes them as {@code Warning} headers: in the order added, the same
 * text once, never an empty text nor one kube cannot make a header of (a control character). Their
 * size is bounded as kube's: when a warning would take the texts past {@value #TOTAL_RUNES} runes
 * (code points), the recorder starts truncating: every warning recorded so far and every later one
 * is cut to its first {@value #ITEM_RUNES} runes, and once the truncated texts reach {@value
 * #TOTAL_RUNES} runes later warnings are dropped. However many or large the warnings admission
 * webhooks answer, a response thus carries about 4 KiB of warning text at most.
 *
 * <p>Safe for concurrent adds: a deletecollection's items are admitted concurrently into one
 * recorder, as kube's.
 */
public final class WarningRecorder {

    /** kube's {@code truncateAtTotalRunes}. */
    public static final int TOTAL_RUNES = 4 * 1024;

    /** kube's {@code truncateItemRunes}. */
    public static final int ITEM_RUNES = 256;

    private final int totalRunes;
    private final int itemRunes;

    /** Every text added: each is recorded once. */
    private final Set<String> seen = new HashSet<>();

    /**
     * What truncation replays: every text recorded before it began, already cut to the item limit
     * (the replay cuts it so), invalid ones too (kube's replay cuts before it checks, so a cut text
     * may become writable).
     */
    private final List<String> recorded = new ArrayList<>();

    /** The texts as they are written. */
    private final List<String> written = new ArrayList<>();

    private int writtenRunes;
    private boolean truncating;

    public WarningRecorder() {
        this(TOTAL_RUNES, ITEM_RUNES);
    }

    /** A recorder with other limits than kube's, for tests of the rules. */
    WarningRecorder(int totalRunes, int itemRunes) {
        this.totalRunes = totalRunes;
        this.itemRunes = itemRunes;
    }

    /** Records {@code text} as kube's {@code AddWarning} (agent {@code -}). */
    public synchronized void add(String text) {
        if (text == null || text.isEmpty()) {
            return;
        }
        if (truncating && writtenRunes >= totalRunes) {
            return;
        }
        if (!seen.add(text)) {
            return;
        }
        String shown = text;
        int runes = text.codePointCount(0, text.length());
        if (truncating) {
            if (runes > itemRunes) {
                shown = cut(text);
                runes = itemRunes;
            }
        } else {
            recorded.add(runes > itemRunes ? cut(text) : text);
        }
        if (!writable(shown)) {
            return;
        }
        if (truncating || writtenRunes + runes <= totalRunes) {
            writtenRunes += runes;
            written.add(shown);
            return;
        }
        // Past the limit: from now on every text is cut, those already written too.
        truncating = true;
        writtenRunes = 0;
        written.clear();
        for (String r : recorded) {
            if (writable(r)) {
                writtenRunes += r.codePointCount(0, r.length());
                written.add(r);
            }
        }
        recorded.clear();
    }

    /** Records each of {@code texts} in order. */
    public void addAll(Iterable<String> texts) {
        for (String t : texts) {
            add(t);
        }
    }

    /** The texts of the response's {@code Warning} headers, in order. */
    public synchronized List<String> texts() {
        return List.copyOf(written);
    }

    /** The warnings {@code texts} leave once recorded. */
    public static List<String> of(List<String> texts) {
        WarningRecorder r = new WarningRecorder();
        r.addAll(texts);
        return r.texts();
    }

    private String cut(String text) {
        return text.substring(0, text.offsetByCodePoints(0, itemRunes));
    }

    /**
     * Whether kube's {@code NewWarningHeader} makes a header of {@code text}: valid UTF-8 (a lone
     * surrogate is not) without control characters (Go's {@code unicode.IsControl}: C0 and C1).
     */
    private static boolean writable(String text) {
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (Character.isISOControl(c) || (c <= 0xFFFF && Character.isSurrogate((char) c))) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }
}
