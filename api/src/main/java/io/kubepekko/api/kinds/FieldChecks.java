package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.math.BigDecimal;
import java.util.List;

/**
 * Small field checks that several kinds' validations share (an enum field, a required text, a
 * port's protocol, a resource quantity), so each strategy words these errors exactly as Kubernetes'
 * common validation helpers do without depending on pod validation.
 */
final class FieldChecks {
    private FieldChecks() {}

    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

    /** A required enum field: Required when empty, Unsupported when not among {@code values}. */
    static List<FieldError> enumField(
            JsonNode parent, String field, List<String> values, FieldPath parentPath) {
        String v = Nodes.text(parent, field);
        if (v.isEmpty()) {
            return List.of(FieldError.required(parentPath.child(field).toString(), ""));
        }
        if (!values.contains(v)) {
            return List.of(FieldError.notSupported(parentPath.child(field).toString(), v, values));
        }
        return List.of();
    }

    static void requiredText(
            JsonNode parent, String field, FieldPath parentPath, List<FieldError> errs) {
        if (Nodes.text(parent, field).isEmpty()) {
            errs.add(FieldError.required(parentPath.child(field).toString(), ""));
        }
    }

    /** A required {@code protocol} among SCTP, TCP and UDP. */
    static List<FieldError> protocol(JsonNode port, FieldPath path) {
        String protocol = Nodes.text(port, "protocol");
        if (protocol.isEmpty()) {
            return List.of(FieldError.required(path.child("protocol").toString(), ""));
        }
        if (!PROTOCOLS.contains(protocol)) {
            return List.of(
                    FieldError.notSupported(
                            path.child("protocol").toString(), protocol, PROTOCOLS));
        }
        return List.of();
    }

    /** The parsed quantity, or null after recording why it is invalid. */
    static BigDecimal quantity(String text, FieldPath path, List<FieldError> errs) {
        BigDecimal q = amount(text);
        if (q == null) {
            errs.add(FieldError.invalid(path.toString(), text, Quantity.FORMAT_WRONG));
        } else if (q.signum() < 0) {
            errs.add(FieldError.invalid(path.toString(), text, ObjectMetaValidation.IS_NEGATIVE));
            return null;
        }
        return q;
    }

    static BigDecimal amount(String text) {
        return Quantity.parse(text).map(Quantity::amount).orElse(null);
    }
}
