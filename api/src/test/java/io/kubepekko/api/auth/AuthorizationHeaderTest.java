package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AuthorizationHeaderTest {

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "Bearer abc|abc",
                "bearer abc|abc",
                "BEARER abc|abc",
                "  Bearer abc  |abc",
                "Bearer a b|a",
                "Bearer a.b.c-_=|a.b.c-_=",
            })
    void presentsTheSecondWordOfABearerHeader(String header, String token) {
        assertEquals(Optional.of(token), AuthorizationHeader.parse(header).bearerToken());
    }

    @ParameterizedTest(name = "[{0}] presents nothing")
    @CsvSource(
            delimiter = '|',
            nullValues = "NULL",
            value = {
                "NULL",
                "''",
                "'   '",
                "Bearer",
                "'Bearer '",
                "Basic dXNlcjpwYXNz",
                "Token abc",
                "Bearerabc",
                "Bearer\tabc",
            })
    void presentsNothingForOtherSchemesAndEmptyTokens(String header) {
        assertEquals(Optional.empty(), AuthorizationHeader.parse(header).bearerToken());
        assertEquals(false, AuthorizationHeader.credentials(List.of(), header).presentsAny());
    }

    @Test
    void warnsWhenASecondSpaceHidesTheToken() {
        AuthorizationHeader.Parsed parsed = AuthorizationHeader.parse("Bearer  abc");
        assertEquals(Optional.empty(), parsed.bearerToken());
        assertEquals(Optional.of(AuthorizationHeader.EXTRA_SPACE_WARNING), parsed.warning());
    }
}
