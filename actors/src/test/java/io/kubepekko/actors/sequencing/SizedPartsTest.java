package io.kubepekko.actors.sequencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one byte-budget cutter behind Revisions' commit parts and publish chunks. */
class SizedPartsTest {

    @Test
    void aListThatFitsIsOnePartAndNotCopied() {
        List<Integer> items = List.of(10, 20, 30);
        List<List<Integer>> parts = SizedParts.split(items, Integer::longValue, 100);
        assertEquals(1, parts.size());
        assertSame(items, parts.get(0));
    }

    @Test
    void cutsBeforeTheItemThatWouldGoOverTheBudget() {
        List<List<Integer>> parts =
                SizedParts.split(List.of(40, 40, 40, 10, 90), Integer::longValue, 100);
        assertEquals(List.of(List.of(40, 40), List.of(40, 10), List.of(90)), parts);
    }

    @Test
    void anItemLargerThanTheBudgetIsAPartOfItsOwn() {
        List<List<Integer>> parts = SizedParts.split(List.of(5, 500, 5), Integer::longValue, 100);
        assertEquals(List.of(List.of(5), List.of(500), List.of(5)), parts);
    }

    @Test
    void anEmptyListIsOneEmptyPart() {
        assertEquals(
                List.of(List.of()), SizedParts.split(List.<Integer>of(), Integer::longValue, 100));
    }
}
