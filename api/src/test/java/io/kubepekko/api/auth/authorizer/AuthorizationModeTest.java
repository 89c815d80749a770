package io.kubepekko.api.auth.authorizer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AuthorizationModeTest {

    @Test
    void theModesKeepTheirOrder() {
        assertEquals(
                List.of(
                        AuthorizationMode.RBAC,
                        AuthorizationMode.NODE,
                        AuthorizationMode.ALWAYS_DENY),
                AuthorizationMode.parse("RBAC,Node,AlwaysDeny").modes());
    }

    @Test
    void anUnknownModeIsRefusedInKubesWords() {
        assertEquals(
                Optional.of("authorization-mode \"rbac\" is not a valid mode"),
                AuthorizationMode.parse("Node,rbac").problem());
        assertEquals(
                Optional.of("authorization-mode \"\" is not a valid mode"),
                AuthorizationMode.parse("Node,").problem());
    }

    @Test
    void kubesOtherModesAreNamedAsUnsupported() {
        assertEquals(
                Optional.of("authorization-mode \"Webhook\" is not supported by this server"),
                AuthorizationMode.parse("Webhook").problem());
    }

    @Test
    void aModeTwiceOrNoneIsRefused() {
        assertEquals(
                Optional.of(
                        "authorization-mode [\"RBAC\" \"Node\" \"RBAC\"] has mode specified more than once"),
                AuthorizationMode.parse("RBAC,Node,RBAC").problem());
        assertEquals(
                Optional.of("at least one authorization-mode must be passed"),
                AuthorizationMode.parse("").problem());
    }
}
