package io.kubepekko.api.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TokenFileTest {

    private static TokenFile.Parsed parsed(String text) {
        return assertInstanceOf(TokenFile.Parsed.class, TokenFile.parse("/etc/tokens.csv", text));
    }

    private static String failed(String text) {
        return assertInstanceOf(TokenFile.Failed.class, TokenFile.parse("/etc/tokens.csv", text))
                .error();
    }

    @Test
    void readsTokenUserUidAndQuotedGroupsIgnoringFurtherColumns() {
        TokenFile.Parsed p =
                parsed(
                        "t1,alice,uid-1,\"dev,ops\",extra,more\n"
                                + "t2,bob,uid-2\r\n"
                                + "\n"
                                + "t3,carol,,solo\n");
        assertEquals(
                Map.of(
                        "t1",
                        new UserInfo("alice", "uid-1", List.of("dev", "ops"), Map.of()),
                        "t2",
                        new UserInfo("bob", "uid-2", List.of(), Map.of()),
                        "t3",
                        new UserInfo("carol", "", List.of("solo"), Map.of())),
                p.file().users());
        assertEquals(List.of(), p.warnings());
    }

    @Test
    void keepsTheLastRecordOfADuplicateTokenWithAWarning() {
        TokenFile.Parsed p = parsed("t,alice,1\nt,bob,2\n");
        assertEquals("bob", p.file().users().get("t").name());
        assertEquals(
                List.of(
                        "duplicate token has been found in token file '/etc/tokens.csv', record"
                                + " number '2'"),
                p.warnings());
    }

    @Test
    void skipsAnEmptyTokenWithAWarning() {
        TokenFile.Parsed p = parsed(",alice,1\nt,bob,2\n");
        assertEquals(List.of("t"), List.copyOf(p.file().users().keySet()));
        assertEquals(
                List.of(
                        "empty token has been found in token file '/etc/tokens.csv', record"
                                + " number '1'"),
                p.warnings());
    }

    @Test
    void hasNoCommentLinesAsKubeSetsNone() {
        assertEquals(
                "token file '/etc/tokens.csv' must have at least 3 columns (token, user name, user"
                        + " uid), found 1",
                failed("# tokens\nt,alice,1\n"));
        assertEquals("#t", parsed("#t,alice,1\n").file().users().keySet().iterator().next());
    }

    @Test
    void readsAnEmptyGroupColumnAsOneEmptyGroupAsKubeSplitsIt() {
        assertEquals(List.of(""), parsed("t,alice,1,\n").file().users().get("t").groups());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "t,alice|token file '/etc/tokens.csv' must have at least 3 columns (token, user"
                        + " name, user uid), found 2",
                "t,al\"ice,1|parse error on line 1, column 5: bare \" in non-quoted-field",
                "t,\"alice\"x,1|parse error on line 1, column 9: extraneous or missing \" in"
                        + " quoted-field",
            })
    void failsTheWholeFileOnKubesErrors(String text, String error) {
        assertEquals(error, failed(text + "\nok,bob,2\n"));
    }

    @Test
    void readsAQuotedFieldAcrossLinesAndEscapedQuotes() {
        TokenFile.Parsed p = parsed("t,\"al\"\"ice\",\"1\n2\"\n");
        UserInfo u = p.file().users().get("t");
        assertEquals("al\"ice", u.name());
        assertEquals("1\n2", u.uid());
    }

    @Test
    void failsOnAnUnclosedQuote() {
        assertEquals(
                "record on line 1; parse error on line 2, column 5: extraneous or missing \" in"
                        + " quoted-field",
                failed("t,\"alice,1\nabc\n"));
    }

    @Test
    void authenticatesAKnownTokenAndLeavesUnknownOnesToOthers() {
        TokenFileAuthenticator auth =
                new TokenFileAuthenticator(parsed("t1,alice,uid-1,dev\nt2,bob,uid-2\n").file());
        assertEquals(
                new Authentication.Authenticated(
                        new UserInfo("alice", "uid-1", List.of("dev"), Map.of())),
                auth.authenticateToken("t1", List.of()));
        assertEquals(new Authentication.NotPresented(), auth.authenticateToken("t3", List.of()));
        assertEquals(new Authentication.NotPresented(), auth.authenticateToken("t", List.of()));
        assertEquals(new Authentication.NotPresented(), auth.authenticateToken("", List.of()));
    }
}
