package io.kubepekko.api.admission.cel;

import static io.kubepekko.api.admission.cel.CelEval.assertError;
import static io.kubepekko.api.admission.cel.CelEval.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's urls.go examples (its doc comment), as our expressions. */
class CelUrlsTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
                "isURL('/absolute-path')",
                "!isURL('https://a:b:c/')",
                "!isURL('../relative-path')",
                "!isURL('')",
                "isURL('mailto:someone@example.com')",
                "url('/path').getScheme() == ''",
                "url('https://example.com/').getScheme() == 'https'",
                "url('HTTPS://example.com/').getScheme() == 'https'",
                "url('https://example.com:80/').getHost() == 'example.com:80'",
                "url('https://example.com/').getHost() == 'example.com'",
                "url('https://[::1]:80/').getHost() == '[::1]:80'",
                "url('https://[::1]/').getHost() == '[::1]'",
                "url('/path').getHost() == ''",
                "url('https://example.com:80/').getHostname() == 'example.com'",
                "url('https://127.0.0.1:80/').getHostname() == '127.0.0.1'",
                "url('https://[::1]:80/').getHostname() == '::1'",
                "url('/path').getHostname() == ''",
                "url('https://example.com:80/').getPort() == '80'",
                "url('https://example.com/').getPort() == ''",
                "url('/path').getPort() == ''",
                "url('https://example.com/path').getEscapedPath() == '/path'",
                "url('https://example.com/path with spaces/').getEscapedPath()"
                        + " == '/path%20with%20spaces/'",
                "url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'",
                "url('https://example.com').getEscapedPath() == ''",
                "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery()"
                        + " == {'k1': ['a'], 'k2': ['b', 'c']}",
                "url('https://example.com/path?key with spaces=value with spaces').getQuery()"
                        + " == {'key with spaces': ['value with spaces']}",
                "url('https://example.com/path?').getQuery() == {}",
                "url('https://example.com/path').getQuery() == {}",
                "url('https://example.com/path?a=1#frag').getQuery() == {'a': ['1']}",
            })
    void kubesExamplesHold(String expression) throws Exception {
        assertTrue(expression);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "url('https://a:b:c/').getHost() == ''|URL parse error during conversion from"
                        + " string: parse \"https://a:b:c/\": invalid port \":c\" after host",
                "url('../relative-path').getHost() == ''|URL parse error during conversion from"
                        + " string: parse \"../relative-path\": invalid URI for request",
                "url('https://example.com/%zz').getHost() == ''|URL parse error during conversion"
                        + " from string: parse \"https://example.com/%zz\": invalid URL escape"
                        + " \"%zz\"",
                "url('https://exa mple.com/').getHost() == ''|URL parse error during conversion"
                        + " from string: parse \"https://exa mple.com/\": invalid character \" \""
                        + " in host name",
            })
    void badUrlsFailWithKubesWords(String expression, String message) {
        assertError(expression, message);
    }
}
