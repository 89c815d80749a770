package io.kubepekko.api.admission.cel;

import static io.kubepekko.api.admission.cel.CelEval.assertError;
import static io.kubepekko.api.admission.cel.CelEval.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** kube's quantity.go examples (its doc comment and tests), as our expressions. */
class CelQuantityTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "isQuantity('1.3G')",
                "isQuantity('1.3Gi')",
                "!isQuantity('1,3G')",
                "isQuantity('10000k')",
                "!isQuantity('200K')",
                "!isQuantity('Three')",
                // kube's doc comment says 'Mi' is no quantity, but resource.ParseQuantity reads
                // a missing number as 0 (so does our Quantity).
                "isQuantity('Mi') && quantity('Mi') == quantity('0')",
                "isQuantity('20')",
                "!isQuantity('20Mo')",
                "!isQuantity('10Mm')",
                "quantity('50000000G').isInteger()",
                "quantity('50k').isInteger()",
                "!quantity('9999999999999999999999999999999999999G').isInteger()",
                "!quantity('1.5').isInteger()",
                "quantity('50k').asInteger() == 50000",
                "quantity('50k').sub(20000).asApproximateFloat() == 30000.0",
                "quantity('50.703k').asApproximateFloat() == 50703.0",
                "quantity('50k').add(quantity('20k')) == quantity('70k')",
                "quantity('50k').add(20) == quantity('50020')",
                "quantity('50k').sub(quantity('20k')) == quantity('30k')",
                "quantity('50k').sub(20000) == quantity('30k')",
                "quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20')",
                "quantity('50k').add(20).sub(quantity('100k')).asInteger() == -49980",
                "quantity('50k').add(quantity('20')) == quantity('50.02k')",
                "!quantity('50k').add(20).isLessThan(quantity('50020'))",
                "quantity('200M').compareTo(quantity('0.2G')) == 0",
                "quantity('50M').compareTo(quantity('50Mi')) == -1",
                "quantity('50Mi').compareTo(quantity('50M')) == 1",
                "quantity('150Mi').isGreaterThan(quantity('100Mi'))",
                "!quantity('50Mi').isGreaterThan(quantity('100Mi'))",
                "quantity('50M').isLessThan(quantity('100M'))",
                "!quantity('100M').isLessThan(quantity('50M'))",
                "!quantity('200M').isGreaterThan(quantity('0.2G'))",
                "!quantity('200M').isLessThan(quantity('0.2G'))",
                "quantity('200M') == quantity('200M')",
                "quantity('200M') == quantity('0.2G') && quantity('0.2G') == quantity('200M')",
                "quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M')",
                "quantity('200M') != quantity('0.3G')",
                "sign(quantity('-1Mi')) == -1",
                "sign(quantity('0')) == 0",
                "sign(quantity('5m')) == 1",
            })
    void kubesExamplesHold(String expression) throws Exception {
        assertTrue(expression);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "quantity('10Mo') == quantity('1')|quantities must match the regular expression"
                        + " '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                "quantity('10Mm') == quantity('1')|unable to parse quantity's suffix",
                "quantity('9999999999999999999999999999999999999G').asInteger() == 1|cannot"
                        + " convert value to integer",
            })
    void badQuantitiesFailWithKubesWords(String expression, String message) {
        assertError(expression, message);
    }
}
