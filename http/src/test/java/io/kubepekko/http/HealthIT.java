package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code /healthz}, {@code /livez} and {@code /readyz} of a running server, rendered as
 * kube-apiserver renders them.
 */
class HealthIT {

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/healthz", "/livez", "/readyz"})
    void answersOkAsPlainText(String path) {
        Response r = api.get(path).assertCode(200);
        assertEquals("ok", r.text());
        assertEquals("text/plain", r.mediaType());
        assertEquals("nosniff", r.header("X-Content-Type-Options").orElse(null));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"healthz", "livez", "readyz"})
    void verboseListsEveryCheckThenTheSummaryLine(String endpoint) {
        Response r = api.get("/" + endpoint + "?verbose").assertCode(200);
        List<String> lines = r.text().lines().toList();
        assertTrue(lines.size() >= 2, r.text());
        assertEquals("[+]ping ok", lines.get(0));
        for (String line : lines.subList(0, lines.size() - 1)) {
            assertTrue(line.matches("\\[\\+][a-z0-9/-]+ ok"), () -> "check line: " + line);
        }
        assertEquals(endpoint + " check passed", lines.get(lines.size() - 1));
        assertTrue(r.text().endsWith("\n"), "the body ends with a newline");
    }

    @Test
    void readyzVerboseIncludesTheClusterCheck() {
        String body = api.get("/readyz?verbose").assertCode(200).text();
        assertTrue(body.lines().anyMatch("[+]cluster ok"::equals), body);
        assertTrue(
                api.get("/livez?verbose")
                        .assertCode(200)
                        .text()
                        .lines()
                        .noneMatch(l -> l.contains("cluster")),
                "liveness does not depend on other members");
    }

    @Test
    void readyzVerboseIncludesTheShutdownCheck() {
        String body = api.get("/readyz?verbose").assertCode(200).text();
        assertTrue(body.lines().anyMatch("[+]shutdown ok"::equals), body);
    }

    @Test
    void excludedCheckIsShownAsExcluded() {
        String body = api.get("/livez?exclude=ping&verbose").assertCode(200).text();
        List<String> lines = body.lines().toList();
        assertEquals("[+]ping excluded: ok", lines.get(0));
        assertEquals("livez check passed", lines.get(lines.size() - 1));
    }

    @Test
    void excludeWithoutVerboseStillAnswersOk() {
        assertEquals("ok", api.get("/readyz?exclude=ping").assertCode(200).text());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/livez/ping", "/readyz/ping", "/healthz/ping"})
    void singleCheckAnswersOk(String path) {
        assertEquals("ok", api.get(path).assertCode(200).text());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/readyz/nonexistent", "/livez/nonexistent", "/livez/ping/extra"})
    void unknownCheckIsNotFound(String path) {
        api.get(path).assertCode(404);
    }
}
