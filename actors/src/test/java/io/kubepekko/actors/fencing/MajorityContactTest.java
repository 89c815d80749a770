package io.kubepekko.actors.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MajorityContactTest {
    private static final long LEASE = 2_000_000_000L;
    private static final String A = "pekko://kubepekko@10.0.0.1:17355";
    private static final String B = "pekko://kubepekko@10.0.0.2:17355";
    private static final String C = "pekko://kubepekko@10.0.0.3:17355";
    private static final String D = "pekko://kubepekko@10.0.0.4:17355";
    private static final String E = "pekko://kubepekko@10.0.0.5:17355";

    @Test
    void aServerAloneOrNotYetJoinedMayAlwaysWrite() {
        MajorityContact contact = new MajorityContact();
        assertTrue(contact.lease(A, List.of(), LEASE).unconditional(), "not joined yet");
        assertTrue(contact.lease(A, List.of(A), LEASE).unconditional(), "a cluster of one");
    }

    @Test
    void ofThreeMembersOneAnswerIsAMajorityAndTheLeaseRunsFromWhenItsQuestionWasSent() {
        MajorityContact contact = new MajorityContact();
        assertFalse(contact.lease(A, List.of(A, B, C), LEASE).valid(0), "nobody answered yet");
        contact.answered(B, 1_000);
        MajorityContact.Lease lease = contact.lease(A, List.of(A, B, C), LEASE);
        assertFalse(lease.unconditional());
        assertEquals(1_000 + LEASE, lease.untilNanos());
        assertTrue(lease.valid(1_000 + LEASE - 1));
        assertFalse(
                lease.valid(1_000 + LEASE), "one lease after the question, not after the answer");
        contact.answered(C, 5_000);
        assertEquals(
                5_000 + LEASE,
                contact.lease(A, List.of(A, B, C), LEASE).untilNanos(),
                "the newest answer counts");
    }

    @Test
    void ofFiveMembersTwoOthersMustHaveAnsweredAndTheOlderOfTheTwoNewestCounts() {
        MajorityContact contact = new MajorityContact();
        List<String> five = List.of(A, B, C, D, E);
        contact.answered(B, 9_000);
        assertFalse(contact.lease(A, five, LEASE).valid(9_000), "two of five is no majority");
        contact.answered(C, 4_000);
        contact.answered(D, 7_000);
        assertEquals(7_000 + LEASE, contact.lease(A, five, LEASE).untilNanos());
    }

    @Test
    void aLateAnswerToAnOlderQuestionDoesNotShortenTheLease() {
        MajorityContact contact = new MajorityContact();
        contact.answered(B, 8_000);
        contact.answered(B, 3_000);
        assertEquals(8_000 + LEASE, contact.lease(A, List.of(A, B, C), LEASE).untilNanos());
    }

    @Test
    void onlyTheAnswersOfMembersThatCountMakeTheMajority() {
        MajorityContact contact = new MajorityContact();
        contact.answered(B, 1_000);
        assertFalse(
                contact.lease(A, List.of(A, C, D), LEASE).valid(1_000),
                "B does not count (joining, or gone)");
        assertEquals(
                1_000 + LEASE,
                contact.lease(A, List.of(A, B, C), LEASE).untilNanos(),
                "B's answer from while it was joining counts once it is up");
        contact.forgetAllBut(List.of(A, C));
        assertFalse(
                contact.lease(A, List.of(A, B, C), LEASE).valid(1_000),
                "B left the cluster: its answers were forgotten, it must answer again");
    }

    @Test
    void aServerThatIsNoLongerAMemberMayNotWrite() {
        MajorityContact contact = new MajorityContact();
        contact.answered(B, 1_000);
        MajorityContact.Lease lease = contact.lease(A, List.of(B, C), LEASE);
        assertFalse(lease.valid(1_000));
        assertEquals("this server is no longer a member of the cluster", lease.why());
    }

    @Test
    void leasesCompareAcrossTheNanoTimeOverflow() {
        MajorityContact contact = new MajorityContact();
        long sent = Long.MAX_VALUE - 1_000;
        contact.answered(B, sent);
        MajorityContact.Lease lease = contact.lease(A, List.of(A, B, C), LEASE);
        assertTrue(
                lease.valid(sent + 500),
                "just after the question, across the overflow of the clock");
        assertTrue(
                lease.valid(Long.MAX_VALUE + 1_000_000L),
                "still within the lease after the clock wrapped");
        assertFalse(lease.valid(sent + LEASE));
        contact.answered(C, Long.MAX_VALUE + 10_000L);
        assertEquals(
                Long.MAX_VALUE + 10_000L + LEASE,
                contact.lease(A, List.of(A, B, C), LEASE).untilNanos(),
                "the answer after the wrap is the newer one");
    }
}
