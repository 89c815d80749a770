package io.kubepekko.api.admission.cel;

import static io.kubepekko.api.admission.cel.CelEval.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's format.go examples (its doc comment), as our expressions. */
class CelFormatTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "!format.dns1123Label().validate('my-label-name').hasValue()",
                "!format.dns1123Subdomain().validate('apiextensions.k8s.io').hasValue()",
                "!format.dns1035Label().validate('my-label-name').hasValue()",
                "!format.qualifiedName().validate('apiextensions.k8s.io/v1beta1').hasValue()",
                "!format.dns1123LabelPrefix().validate('my-label-prefix-').hasValue()",
                "!format.dns1123SubdomainPrefix().validate('mysubdomain.prefix.-').hasValue()",
                "!format.dns1035LabelPrefix().validate('my-label-prefix-').hasValue()",
                "!format.labelValue().validate('my_value').hasValue()",
                "!format.uri().validate('http://example.com').hasValue()",
                "!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
                "!format.byte().validate('aGVsbG8=').hasValue()",
                "!format.date().validate('2021-01-01').hasValue()",
                "!format.datetime().validate('2021-01-01T00:00:00Z').hasValue()",
                "format.named('dns1123Label').hasValue()",
                "!format.named('nope').hasValue()",
                "format.named('dns1123Label').value().validate('Not_A_Label').value()"
                        + " == ['a lowercase RFC 1123 label must consist of lower case"
                        + " alphanumeric characters or \\'-\\', and must start and end with an"
                        + " alphanumeric character (e.g. \\'my-name\\',  or \\'123-abc\\', regex"
                        + " used for validation is \\'[a-z0-9]([-a-z0-9]*[a-z0-9])?\\')']",
                "format.dns1123Label().validate('a.b').value() == ['must not contain dots']",
                "format.dns1123LabelPrefix().validate('-x-').hasValue()",
                "format.uri().validate('../relative').value()"
                        + " == ['parse \"../relative\": invalid URI for request']",
                "format.uuid().validate('123').value() == ['does not match the UUID format']",
                "format.byte().validate('aGVsbG8').value() == ['invalid base64']",
                "format.date().validate('2021-02-30').value() == ['invalid date']",
                "format.datetime().validate('2021-01-01').value() == ['invalid datetime']",
            })
    void kubesExamplesHold(String expression) throws Exception {
        assertTrue(expression);
    }
}
