package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.GoUrl;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.NameValidation;
import java.util.List;

/**
 * Where an admission webhook is called, checked as kube's {@code ValidateWebhookClientConfig} does:
 * an https URL without user information, fragment or query, or a Service reference with a valid
 * port and path.
 */
final class WebhookClientConfigValidation {
    private static final String URL_FORM = "; desired format: https://host[/path]";

    private WebhookClientConfigValidation() {}

    /** kube's {@code ValidateWebhookClientConfig}: exactly one of url and service. */
    static void clientConfig(JsonNode cc, FieldPath path, List<FieldError> e) {
        boolean hasUrl = Nodes.has(cc, "url");
        boolean hasService = Nodes.has(cc, "service");
        if (hasUrl == hasService) {
            e.add(
                    FieldError.required(
                            path.toString(), "exactly one of url or service is required"));
        } else if (hasUrl) {
            url(cc.get("url").asText(), path.child("url"), e);
        } else {
            service(cc.get("service"), path.child("service"), e);
        }
    }

    /** kube's {@code ValidateWebhookURL} with https forced. */
    static void url(String raw, FieldPath path, List<FieldError> e) {
        GoUrl u;
        try {
            u = GoUrl.parse(raw);
        } catch (GoUrl.Invalid ex) {
            e.add(
                    FieldError.required(
                            path.toString(),
                            "url must be a valid URL: " + ex.getMessage() + URL_FORM));
            return;
        }
        if (!u.scheme().equals("https")) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            u.scheme(),
                            "'https' is the only allowed URL scheme" + URL_FORM));
        }
        if (u.host().isEmpty()) {
            e.add(
                    FieldError.invalid(
                            path.toString(), u.host(), "host must be specified" + URL_FORM));
        }
        u.user()
                .ifPresent(
                        user ->
                                e.add(
                                        FieldError.invalid(
                                                path.toString(),
                                                user,
                                                "user information is not permitted in the URL")));
        if (!u.fragment().isEmpty()) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            u.fragment(),
                            "fragments are not permitted in the URL"));
        }
        if (!u.rawQuery().isEmpty()) {
            e.add(
                    FieldError.invalid(
                            path.toString(),
                            u.rawQuery(),
                            "query parameters are not permitted in the URL"));
        }
    }

    /** kube's {@code ValidateWebhookService}. */
    private static void service(JsonNode s, FieldPath path, List<FieldError> e) {
        if (Nodes.text(s, "name").isEmpty()) {
            e.add(FieldError.required(path.child("name").toString(), ""));
        }
        if (Nodes.text(s, "namespace").isEmpty()) {
            e.add(FieldError.required(path.child("namespace").toString(), ""));
        }
        long port = s.path("port").asLong(0);
        List<String> portErrs = NameValidation.portNumber(port);
        if (!portErrs.isEmpty()) {
            e.add(
                    FieldError.invalid(
                            path.child("port").toString(),
                            port,
                            "port is not valid: " + String.join(", ", portErrs)));
        }
        if (!Nodes.has(s, "path")) {
            return;
        }
        String p = s.get("path").asText();
        FieldPath at = path.child("path");
        if (p.isEmpty() || p.equals("/")) {
            return;
        }
        if (p.equals("//")) {
            e.add(FieldError.invalid(at.toString(), p, "segment[0] may not be empty"));
            return;
        }
        if (!p.startsWith("/")) {
            e.add(FieldError.invalid(at.toString(), p, "must start with a '/'"));
        }
        String check = p.substring(1);
        if (check.endsWith("/")) {
            check = check.substring(0, check.length() - 1);
        }
        String[] steps = check.split("/", -1);
        for (int i = 0; i < steps.length; i++) {
            if (steps[i].isEmpty()) {
                e.add(FieldError.invalid(at.toString(), p, "segment[" + i + "] may not be empty"));
                continue;
            }
            for (String msg : NameValidation.dns1123Subdomain(steps[i])) {
                e.add(FieldError.invalid(at.toString(), p, "segment[" + i + "]: " + msg));
            }
        }
    }
}
