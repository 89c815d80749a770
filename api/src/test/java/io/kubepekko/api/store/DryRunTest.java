package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.status.ApiException;
import java.util.List;
import org.junit.jupiter.api.Test;

class DryRunTest {

    @Test
    void absentIsARealWrite() {
        assertFalse(DryRun.parse(List.of(), "CreateOptions"));
    }

    @Test
    void allIsADryRunAsOftenAsItIsGiven() {
        assertTrue(DryRun.parse(List.of("All"), "CreateOptions"));
        assertTrue(DryRun.parse(List.of("All", "All"), "UpdateOptions"));
    }

    @Test
    void theBareParameterIsAnUnsupportedEmptyValue() {
        ApiException e =
                assertThrows(ApiException.class, () -> DryRun.parse(List.of(""), "UpdateOptions"));
        assertEquals(422, e.status().code());
        assertEquals(
                "UpdateOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"\"]: "
                        + "supported values: \"All\"",
                e.status().message());
    }

    @Test
    void oneUnsupportedValueAmongAllIsInvalidAndNamesThemAll() {
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () -> DryRun.parse(List.of("All", "x"), "PatchOptions"));
        assertEquals(
                "PatchOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"All\",\"x\"]: "
                        + "supported values: \"All\"",
                e.status().message());
    }

    @Test
    void anyOtherValueIsInvalidOptionsNamingTheKind() {
        ApiException e =
                assertThrows(
                        ApiException.class, () -> DryRun.parse(List.of("bogus"), "DeleteOptions"));
        assertEquals(422, e.status().code());
        assertEquals(
                "DeleteOptions.meta.k8s.io \"\" is invalid: dryRun: Unsupported value: [\"bogus\"]: "
                        + "supported values: \"All\"",
                e.status().message());
    }
}
