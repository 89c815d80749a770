package io.kubepekko.api.meta;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Top-level renaming on bytes: names, order, type meta, and what it refuses. */
class TopLevelFieldsTest {

    private static final TopLevelFields RENAMING =
            TopLevelFields.renaming(
                    Map.of("old", "new"), List.of("kind", "apiVersion", "metadata", "new", "b"));

    private static String rewrite(String json) {
        return new String(
                RENAMING.rewrite(
                        json.replace('\'', '"').getBytes(UTF_8), "Thing", "example.com/v2"),
                UTF_8);
    }

    @Test
    void putsTypeMetaFirstThenTheOrderThenTheRestAsTheyCame() {
        assertEquals(
                "{'kind':'Thing','apiVersion':'example.com/v2','metadata':{'name':'x'},'new':[1,{'a':null}],'b':\"q\\\"\",'z':1.5,'y':true}"
                        .replace('\'', '"'),
                rewrite(
                        "{'z':1.5,'b':\"q\\\"\",'apiVersion':'v1','old':[1,{'a':null}],'y':true,"
                                + "'metadata':{'name':'x'},'kind':'Old'}"));
    }

    @Test
    void dropsTheSeparatorsAroundValuesOfSpacedJson() {
        assertEquals(
                "{'kind':'Thing','apiVersion':'example.com/v2','new':'v','q':{ 'r' : 2 }}"
                        .replace('\'', '"'),
                rewrite("{ 'q' : { 'r' : 2 } ,\n 'old' :\t'v' }"));
    }

    @Test
    void bracesAndQuotesInsideStringsDoNotEndAValue() {
        String nested = "{\"s\":\"}]\\\"{[\",\"t\":[\"]\",{\"u\":\"\\\\\"}],\"n\":-1.5e3}";
        assertEquals(
                "{\"kind\":\"Thing\",\"apiVersion\":\"example.com/v2\",\"new\":"
                        + nested
                        + ",\"z\":\"é☃\"}",
                rewrite("{\"old\":" + nested + ",\"z\":\"é☃\"}"));
    }

    @Test
    void aNameWithEscapesIsReadAsItsText() {
        assertEquals(
                "{\"kind\":\"Thing\",\"apiVersion\":\"example.com/v2\",\"new\":1,\"a\\\"b\":2}",
                rewrite("{\"\\u006fld\":1,\"a\\\"b\":2}"));
    }

    @Test
    void anEmptyObjectHasOnlyTypeMeta() {
        assertEquals("{\"kind\":\"Thing\",\"apiVersion\":\"example.com/v2\"}", rewrite("{}"));
    }

    @Test
    void refusesWhatIsNotOneObject() {
        assertThrows(IllegalArgumentException.class, () -> rewrite("[1]"));
        assertThrows(IllegalArgumentException.class, () -> rewrite("{}{}"));
        assertThrows(
                IllegalArgumentException.class,
                () -> RENAMING.rewrite("{}".getBytes(UTF_8), "Bad\"Kind", "v1"));
    }
}
