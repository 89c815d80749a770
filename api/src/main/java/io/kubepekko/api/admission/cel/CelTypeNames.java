package io.kubepekko.api.admission.cel;

import com.google.common.primitives.UnsignedLong;
import com.google.protobuf.ByteString;
import dev.cel.common.types.CelType;
import dev.cel.common.values.CelByteString;
import io.kubepekko.api.auth.authorizer.Decision;
import io.kubepekko.api.meta.Quantity;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL type name of a value as cel-java hands it to a function ({@code int}, {@code
 * google.protobuf.Timestamp}, {@code net.IP}…), which cel-go's errors name as {@code
 * ref.Type.TypeName()}: kube's messages say what they were given.
 */
final class CelTypeNames {

    private CelTypeNames() {}

    static String of(Object value) {
        if (value instanceof Long) {
            return "int";
        }
        if (value instanceof UnsignedLong) {
            return "uint";
        }
        if (value instanceof Double) {
            return "double";
        }
        if (value instanceof Boolean) {
            return "bool";
        }
        if (value instanceof String) {
            return "string";
        }
        if (value instanceof ByteString || value instanceof CelByteString) {
            return "bytes";
        }
        if (isNull(value)) {
            return "null_type";
        }
        if (value instanceof List<?>) {
            return "list";
        }
        if (value instanceof Map<?, ?>) {
            return "map";
        }
        if (CelTimes.isTimestamp(value)) {
            return "google.protobuf.Timestamp";
        }
        if (CelTimes.isDuration(value)) {
            return "google.protobuf.Duration";
        }
        if (value instanceof CelType) {
            return "type";
        }
        if (value instanceof Optional<?>) {
            return "optional_type";
        }
        return opaque(value);
    }

    /** CEL's null as cel-java represents it. */
    static boolean isNull(Object value) {
        return value == null
                || value instanceof dev.cel.common.values.NullValue
                || value instanceof com.google.protobuf.NullValue;
    }

    /** kube's own types, named as its libraries declare them. */
    private static String opaque(Object value) {
        if (value instanceof IpAddr) {
            return CelNet.IP.name();
        }
        if (value instanceof CelNet.Cidr) {
            return CelNet.CIDR.name();
        }
        if (value instanceof Quantity) {
            return CelQuantity.QUANTITY.name();
        }
        if (value instanceof GoUrl) {
            return CelUrls.URL.name();
        }
        if (value instanceof SemVersion) {
            return CelSemver.SEMVER.name();
        }
        if (value instanceof CelFormat.NamedFormat) {
            return CelFormat.FORMAT.name();
        }
        if (value instanceof CelAuthorizer.Authz) {
            return CelAuthorizer.AUTHORIZER.name();
        }
        if (value instanceof CelAuthorizer.PathCheck) {
            return CelAuthorizer.PATH_CHECK.name();
        }
        if (value instanceof CelAuthorizer.GroupCheck) {
            return CelAuthorizer.GROUP_CHECK.name();
        }
        if (value instanceof CelAuthorizer.ResourceCheck) {
            return CelAuthorizer.RESOURCE_CHECK.name();
        }
        if (value instanceof Decision) {
            return CelAuthorizer.DECISION.name();
        }
        return value.getClass().getName();
    }
}
