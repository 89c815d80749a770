package io.kubepekko.api.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's {@code url.Parse} refusals and {@code URL.String()}, as kube prints them for its flags. */
class GoUrlTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            textBlock =
                    """
                    :foo             | parse ":foo": missing protocol scheme
                    1http://x/       | parse "1http://x/": first path segment in URL cannot contain colon
                    https://[::1/    | parse "https://[::1/": missing ']' in host
                    https://[::1]x/  | parse "https://[::1]x/": invalid port "x" after host
                    https://h:port/  | parse "https://h:port/": invalid port ":port" after host
                    https://a b/     | parse "https://a b/": invalid character " " in host name
                    https://h%41/    | parse "https://h%41/": invalid URL escape "%41"
                    https://h/%zz    | parse "https://h/%zz": invalid URL escape "%zz"
                    https://h/%4     | parse "https://h/%4": invalid URL escape "%4"
                    https://u r@h/   | parse "https://u r@h/": net/url: invalid userinfo
                    https://h/#x%zz  | parse "https://h/#x%zz": invalid URL escape "%zz"
                    """)
    void refusesWhatGoRefusesInGosWords(String url, String message) {
        assertEquals(
                message, assertThrows(GoUrl.Invalid.class, () -> GoUrl.parse(url)).getMessage());
    }

    @Test
    void refusesControlCharacters() {
        assertEquals(
                "parse \"https://h/x\\n\": net/url: invalid control character in URL",
                assertThrows(GoUrl.Invalid.class, () -> GoUrl.parse("https://h/x\n")).getMessage());
        assertEquals(
                "parse \"https://h/\\x7f\": net/url: invalid control character in URL",
                assertThrows(GoUrl.Invalid.class, () -> GoUrl.parse("https://h/\u007f"))
                        .getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            textBlock =
                    """
                    https://kube.example:6443/openid/v1/jwks | https | https://kube.example:6443/openid/v1/jwks
                    HTTP://Kube.example/a b?q=1#f g          | http  | http://Kube.example/a%20b?q=1#f%20g
                    https://kube.example/a%2Fb               | https | https://kube.example/a%2Fb
                    https://u:p@[fe80::1%25en0]:1/           | https | https://u:p@[fe80::1%25en0]:1/
                    http:/x                                  | http  | http:/x
                    http:///x                                | http  | http:///x
                    urn:kube:issuer                          | urn   | urn:kube:issuer
                    kubernetes/serviceaccount                | ''    | kubernetes/serviceaccount
                    ./a:b                                    | ''    | ./a:b
                    https://h?                               | https | https://h?
                    """)
    void parsesWhatGoParsesAndPrintsItAsGo(String url, String scheme, String printed)
            throws Exception {
        GoUrl parsed = GoUrl.parse(url);
        assertEquals(scheme, parsed.scheme());
        assertEquals(printed, parsed.toString());
    }
}
