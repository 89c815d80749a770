package io.kubepekko.api.admission.cel;

import io.kubepekko.api.selector.FieldSelector;
import io.kubepekko.api.selector.LabelSelector;
import io.kubepekko.api.status.ApiException;

/**
 * The selectors of a CEL resource check as kube's {@code resourceCheckVal.Authorize} reads them
 * ({@code fields.ParseSelector}, {@code labels.ParseToRequirements}): an empty one is none, and one
 * that does not parse is no error for the expression but adds no requirement (kube keeps the parse
 * error in the attributes; no authorizer here or in kube's RBAC reads it).
 */
final class CelSelectors {

    private CelSelectors() {}

    static FieldSelector fields(String selector) {
        if (selector.isEmpty()) {
            return FieldSelector.everything();
        }
        try {
            return FieldSelector.parse(selector);
        } catch (ApiException unparsable) {
            return FieldSelector.everything();
        }
    }

    static LabelSelector labels(String selector) {
        if (selector.isEmpty()) {
            return LabelSelector.everything();
        }
        try {
            return LabelSelector.parse(selector);
        } catch (ApiException unparsable) {
            return LabelSelector.everything();
        }
    }
}
