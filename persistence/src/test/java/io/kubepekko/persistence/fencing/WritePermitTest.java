package io.kubepekko.persistence.fencing;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
