package io.kubepekko.api.admission.cel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CelExpressionCheckTest {

    private static final FieldPath PATH =
            FieldPath.of("webhooks").index(0).child("matchConditions").index(0).child("expression");

    private static List<FieldError> check(String expression) {
        return CelExpressionCheck.INSTANCE.check(expression, PATH);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "true",
                "object.metadata.name == 'x'",
                "oldObject == null",
                "request.userInfo.username in ['a', 'b']",
                "request.dryRun",
                "has(object.spec) && object.spec.replicas > 1",
                "authorizer.group('').resource('pods').check('get').allowed()",
                "authorizer.requestResource.namespace('x').check('update').errored()",
                "authorizer.path('/healthz').check('get').reason() == ''",
                "namespaceObject == null",
            })
    void kubesVariablesAndLibrariesCompile(String expression) {
        assertEquals(List.of(), check(expression));
    }

    @Test
    void anExpressionThatDoesNotCompileIsInvalidWithTheCompilersWords() {
        assertEquals(
                List.of(
                        FieldError.invalid(
                                PATH.toString(),
                                "foo == 1",
                                "compilation failed: ERROR: <input>:1:1: undeclared reference to"
                                        + " 'foo' (in container '')\n | foo == 1\n | ^")),
                check("foo == 1"));
        assertEquals(
                "compilation failed: ERROR: <input>:1:8: undefined field 'bogus'\n"
                        + " | request.bogus == 'x'\n | .......^",
                check("request.bogus == 'x'").get(0).detail());
        assertEquals(1, check("object.name ==").size());
    }

    @Test
    void anExpressionMustBeBool() {
        assertEquals(
                List.of(
                        FieldError.invalid(
                                PATH.toString(),
                                "object.metadata.name",
                                "must evaluate to bool but got dyn")),
                check("object.metadata.name"));
        assertEquals("must evaluate to bool but got int", check("1 + 2").get(0).detail());
        assertEquals(
                "must evaluate to bool but got string",
                check("request.userInfo.username").get(0).detail());
        assertEquals(
                "must evaluate to bool but got list(string)",
                check("request.userInfo.groups").get(0).detail());
    }
}
