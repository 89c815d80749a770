package io.kubepekko.api.status;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarningRecorderTest {

    @Test
    void warningsAreKeptInOrderTheSameTextOnce() {
        WarningRecorder r = new WarningRecorder();
        r.addAll(List.of("careful now", "deleting one", "careful now", "deleting two"));
        assertEquals(List.of("careful now", "deleting one", "deleting two"), r.texts());
    }

    @Test
    void anEmptyTextOrOneWithAControlCharacterIsNoHeader() {
        WarningRecorder r = new WarningRecorder();
        r.addAll(
                List.of(
                        "",
                        "two\nlines",
                        "a\ttab",
                        "c1\u0085",
                        "lone \ud800",
                        "fine ñ \uD83D\uDE00"));
        assertEquals(List.of("fine ñ \uD83D\uDE00"), r.texts());
    }

    @Test
    void pastTheTotalEveryWarningIsCutAndLaterOnesDropped() {
        // kube's limits scaled down: 25 runes in all, 5 a warning once truncating.
        WarningRecorder r = new WarningRecorder(25, 5);
        r.add("aaaaaaaaaa");
        r.add("aaaaaaaaaa");
        r.add("bb");
        r.add("ccc");
        r.add("Iñtërnâtiô");
        // 25 runes: within the total, each kept whole.
        assertEquals(List.of("aaaaaaaaaa", "bb", "ccc", "Iñtërnâtiô"), r.texts());
        // One more rune: every warning is cut to 5 runes, this one too (15 + 1).
        r.add("e");
        assertEquals(List.of("aaaaa", "bb", "ccc", "Iñtër", "e"), r.texts());
        r.add("ffffffffff"); // cut: 21
        r.add("ffffffffff"); // the same text
        r.add("gggggggggg"); // cut: 26, past the total
        r.add("h"); // dropped: the total is reached
        assertEquals(List.of("aaaaa", "bb", "ccc", "Iñtër", "e", "fffff", "ggggg"), r.texts());
    }

    @Test
    void oneWarningPastTheTotalIsCutToTheItemLimitOnACodePointBoundary() {
        String emoji = "\uD83D\uDE00";
        WarningRecorder r = new WarningRecorder();
        r.add(emoji.repeat(5000));
        r.add("careful now");
        assertEquals(List.of(emoji.repeat(256), "careful now"), r.texts());
    }

    @Test
    void aTextWhoseControlCharacterIsCutAwayIsWrittenCut() {
        WarningRecorder r = new WarningRecorder(25, 5);
        r.add("abcdef\n"); // not writable whole; its cut is
        assertEquals(List.of(), r.texts());
        r.add("x".repeat(30));
        assertEquals(List.of("abcde", "xxxxx"), r.texts());
    }

    @Test
    void manyWarningsStayWithinAboutTheTotal() {
        WarningRecorder r = new WarningRecorder();
        for (int i = 0; i < 10_000; i++) {
            r.add(i + "x".repeat(95));
        }
        List<String> texts = r.texts();
        int runes = texts.stream().mapToInt(String::length).sum();
        // 40 warnings of about 96 runes fit; the 43rd passes 4096 and is the last.
        assertEquals(43, texts.size());
        assertTrue(runes <= WarningRecorder.TOTAL_RUNES + WarningRecorder.ITEM_RUNES);
    }

    @Test
    void recordingWhatARecorderWroteLeavesItAsItIs() {
        WarningRecorder r = new WarningRecorder();
        for (int i = 0; i < 100; i++) {
            r.add(i + "y".repeat(1000));
        }
        assertEquals(r.texts(), WarningRecorder.of(r.texts()));
    }
}
