package io.kubepekko.persistence.fencing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WritePermitTest {
    @Test
    void aPermitIsUnconditionalUntilALeaseTakesOver() {
        assertEquals(Optional.empty(), new WritePermit().refusal(Long.MIN_VALUE));
    }

    @Test
    void aLeasedPermitRefusesFromItsEndOnSayingWhy() {
        WritePermit permit = new WritePermit();
        permit.grantUntil(5_000, "no majority");
        assertEquals(Optional.empty(), permit.refusal(4_999));
        assertEquals(Optional.of("no majority"), permit.refusal(5_000));
        permit.grantUntil(9_000, "no majority");
        assertEquals(Optional.empty(), permit.refusal(5_000), "renewed");
        permit.grantAlways();
        assertEquals(Optional.empty(), permit.refusal(Long.MAX_VALUE));
    }

    @Test
    void aRevokedPermitRefusesAtOnce() {
        WritePermit permit = new WritePermit();
        permit.revoke("removed");
        assertEquals(Optional.of("removed"), permit.refusal());
    }

    @Test
    void bothLeasesMustHoldAndTheFirstToLapseIsNamed() {
        WritePermit permit = new WritePermit();
        permit.grantUntil(9_000, "no majority");
        permit.grantGenerationUntil(5_000, "generation unconfirmed");
        assertEquals(Optional.empty(), permit.refusal(4_999));
        assertEquals(Optional.of("generation unconfirmed"), permit.refusal(5_000));
        permit.grantGenerationUntil(20_000, "generation unconfirmed");
        assertEquals(Optional.of("no majority"), permit.refusal(9_000));
    }

    @Test
    void aSupersededPermitRefusesForGoodWhateverIsGrantedLater() {
        WritePermit permit = new WritePermit();
        permit.supersede("another cluster formed");
        permit.grantUntil(Long.MAX_VALUE, "no majority");
        permit.grantGenerationUntil(Long.MAX_VALUE, "generation unconfirmed");
        permit.grantAlways();
        assertEquals(Optional.of("another cluster formed"), permit.refusal(0));
    }

    @Test
    void anAnswerIsGoodUntilTheOthersCanHaveReplacedThisServer() {
        WritePermit permit = new WritePermit();
        permit.grantUntil(5_000, "no majority");
        permit.replacedNoSoonerThan(Duration.ofNanos(1_500));
        assertEquals(
                Optional.of("no majority"),
                permit.refusal(5_000),
                "a write is refused when the lease lapses");
        assertEquals(
                Optional.empty(),
                permit.refusalOfAnswer(6_499),
                "its answer still counts within the margin");
        assertEquals(
                Optional.of("the write's answer came after the permit lapsed (no majority)"),
                permit.refusalOfAnswer(6_500));
    }

    @Test
    void theShortestDeclaredMarginHoldsAndWithoutOneAnswersAreJudgedAsWrites() {
        WritePermit permit = new WritePermit();
        permit.grantUntil(5_000, "no majority");
        assertEquals(
                Optional.of("the write's answer came after the permit lapsed (no majority)"),
                permit.refusalOfAnswer(5_000));
        permit.replacedNoSoonerThan(Duration.ofNanos(2_000));
        permit.replacedNoSoonerThan(Duration.ofNanos(1_000));
        permit.replacedNoSoonerThan(Duration.ofNanos(3_000));
        assertEquals(Optional.empty(), permit.refusalOfAnswer(5_999));
        assertEquals(
                Optional.of("the write's answer came after the permit lapsed (no majority)"),
                permit.refusalOfAnswer(6_000));
    }

    @Test
    void aSupersededPermitRefusesEveryAnswer() {
        WritePermit permit = new WritePermit();
        permit.replacedNoSoonerThan(Duration.ofSeconds(1));
        permit.supersede("a newer cluster formed");
        assertEquals(
                Optional.of(
                        "the write's answer came after the permit lapsed (a newer cluster formed)"),
                permit.refusalOfAnswer(Long.MIN_VALUE));
    }
}
