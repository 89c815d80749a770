package io.kubepekko.api.gc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class PropagationPolicyTest {

    @ParameterizedTest
    @EnumSource(PropagationPolicy.class)
    void readsBackItsOwnSpelling(PropagationPolicy policy) {
        assertEquals(Optional.of(policy), PropagationPolicy.of(policy.wireName()));
    }

    @ParameterizedTest
    @CsvSource({"foreground", "ORPHAN", "''", "nil", "'Background '"})
    void refusesAnyOtherSpellingAsKubernetesComparesExactly(String value) {
        assertEquals(Optional.empty(), PropagationPolicy.of(value));
    }
}
