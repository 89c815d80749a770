package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.NameValidation;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.util.ArrayList;
import java.util.List;

/**
 * networking.k8s.io IPAddresses ({@code ValidateIPAddress}, {@code ValidateIPAddressUpdate}): an
 * address names its parent, whose resource and name are required path segments, whose group (empty
 * for the core group's Services) is a DNS subdomain and whose namespace is optional; the parent
 * never changes. The name, an IP address in canonical form, is the name rule's ({@link
 * io.kubepekko.api.registry.NameRule#IP_ADDRESS}).
 */
public final class IpAddressStrategy implements Strategy {

    public static final IpAddressStrategy INSTANCE = new IpAddressStrategy();

    private static final String PARENT_REF = "spec.parentRef";

    private IpAddressStrategy() {}

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode ref = obj.path("spec").get("parentRef");
        if (ref == null || !ref.isObject()) {
            errs.add(FieldError.required(PARENT_REF, ""));
            return errs;
        }
        String group = Nodes.text(ref, "group");
        if (!group.isEmpty()) {
            for (String msg : NameValidation.dns1123Subdomain(group)) {
                errs.add(FieldError.invalid(PARENT_REF + ".group", group, msg));
            }
        }
        segment(errs, ref, "resource", true);
        segment(errs, ref, "name", true);
        segment(errs, ref, "namespace", false);
        return errs;
    }

    private static void segment(
            List<FieldError> errs, JsonNode ref, String field, boolean required) {
        String value = Nodes.text(ref, field);
        String path = PARENT_REF + "." + field;
        if (value.isEmpty()) {
            if (required) {
                errs.add(FieldError.required(path, ""));
            }
            return;
        }
        for (String msg : NameValidation.pathSegmentName(value)) {
            errs.add(FieldError.invalid(path, value, msg));
        }
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>(validateCreate(obj));
        JsonNode ref = obj.path("spec").get("parentRef");
        if (!Nodes.same(ref, old.path("spec").get("parentRef"))) {
            errs.add(
                    FieldError.invalid(
                            PARENT_REF, BadValue.of(ref), ObjectMetaValidation.FIELD_IMMUTABLE));
        }
        return errs;
    }
}
