package io.kubepekko.api.store;

import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.NameValidation;
import java.util.List;

/**
 * Object names and namespaces as kube-apiserver's storage key function takes them: an object is
 * kept under {@code /<resource>/<namespace>/<name>}, so a name may not be {@code .} or {@code ..}
 * nor hold {@code /} or {@code %}. Checked for the name a request's path gives, and for a name a
 * body gives where the path has none (a Binding posted to {@code bindings}).
 */
public final class StorageKeys {
    private StorageKeys() {}

    /**
     * 400 {@code Name parameter required.} for an empty name, {@code Name parameter invalid: …} for
     * an unusable one.
     */
    public static void checkName(String name) {
        if (name.isEmpty()) {
            throw ApiStatus.badRequest("Name parameter required.").exception();
        }
        List<String> problems = NameValidation.pathSegmentName(name);
        if (!problems.isEmpty()) {
            throw ApiStatus.badRequest(
                            "Name parameter invalid: "
                                    + FieldError.quote(name)
                                    + ": "
                                    + String.join(";", problems))
                    .exception();
        }
    }

    /**
     * 400 for a namespace {@code .} or {@code ..} (kube-apiserver fails with a 500 {@code invalid
     * key} there).
     */
    public static void checkNamespace(String namespace) {
        if (namespace.equals(".") || namespace.equals("..")) {
            throw ApiStatus.badRequest(
                            "Namespace parameter invalid: "
                                    + FieldError.quote(namespace)
                                    + ": may not be '"
                                    + namespace
                                    + "'")
                    .exception();
        }
    }
}
