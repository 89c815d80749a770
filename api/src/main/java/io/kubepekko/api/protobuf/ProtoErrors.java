package io.kubepekko.api.protobuf;

import io.kubepekko.api.status.ApiException;
import io.kubepekko.api.status.ApiStatus;

/**
 * The 400s a protobuf body gets, phrased as kube-apiserver phrases a body it cannot decode: "the
 * object provided is unrecognized" or "&lt;Kind&gt; in version ... cannot be handled as a ...".
 */
final class ProtoErrors {
    private final String prefix;

    /**
     * @param prefix what the message starts with, naming the object being decoded
     */
    ProtoErrors(String prefix) {
        this.prefix = prefix;
    }

    ApiException unknownField(String message, int number) {
        return malformed(
                "field number "
                        + number
                        + " of "
                        + simpleName(message)
                        + " is not known to this server");
    }

    ApiException wrongWireType(String message, String field, int wireType) {
        return malformed(
                "field "
                        + field
                        + " of "
                        + simpleName(message)
                        + " has wire type "
                        + wireType
                        + ", which its type does not allow");
    }

    ApiException malformed(String why) {
        return ApiStatus.badRequest(prefix + why).exception();
    }

    private static String simpleName(String qualified) {
        return qualified.substring(qualified.lastIndexOf('.') + 1);
    }
}
