package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Control characters in {@code labelSelector} and {@code fieldSelector} answer what
 * kube-apiserver's parsers make of them: the label lexer takes a NUL for the end of the input (so
 * {@code %00} selects everything), keys and values are refused with Go-quoted messages, and a field
 * selector term without an operator is refused.
 */
class SelectorCharactersIT {

    private static final String CMS = "/api/v1/namespaces/default/configmaps";
    private static TestApiServer api;

    @BeforeAll
    static void start() throws Exception {
        api = TestApiServer.start();
        api.create(
                CMS,
                json(
                        "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'sel','labels':{'a':'b'}}}"));
    }

    @AfterAll
    static void stop() throws Exception {
        api.close();
    }

    @Test
    void aNulLabelSelectorSelectsEverythingAsKubeApiserversLexerEndsThere() {
        assertEquals(
                1, api.get(CMS + "?labelSelector=%00").assertCode(200).json().path("items").size());
        assertEquals(
                1,
                api.get(CMS + "?labelSelector=%00zz%21%21")
                        .assertCode(200)
                        .json()
                        .path("items")
                        .size());
    }

    @Test
    void controlCharactersInLabelKeysAndValuesAreRefusedWithGoQuotedValues() {
        api.get(CMS + "?labelSelector=a%01")
                .assertStatus(
                        400,
                        "BadRequest",
                        "unable to parse requirement: <nil>: "
                                + "Invalid value: \"a\\x01\": name part must consist of alphanumeric characters, '-', '_' or '.', and "
                                + "must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', "
                                + "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')");
        api.get(CMS + "?labelSelector=a%3Db%07")
                .assertStatus(
                        400,
                        "BadRequest",
                        "unable to parse requirement: "
                                + "values[0][a]: Invalid value: \"b\\a\": a valid label must be an empty string or consist of "
                                + "alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character "
                                + "(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
                                + "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')");
    }

    @Test
    void aFieldSelectorTermWithoutOperatorIsRefusedControlCharactersAndAll() {
        api.get(CMS + "?fieldSelector=%00")
                .assertStatus(400, "BadRequest", "invalid selector: '\0'; can't understand '\0'");
        api.get(CMS + "?fieldSelector=metadata.name%3Dsel,%01")
                .assertStatus(
                        400,
                        "BadRequest",
                        "invalid selector: 'metadata.name=sel,\u0001'; can't understand '\u0001'");
        api.call("DELETE", CMS + "?fieldSelector=%00")
                .send()
                .assertStatus(400, "BadRequest", "invalid selector: '\0'; can't understand '\0'");
        api.get(CMS + "/sel").assertCode(200);
    }
}
