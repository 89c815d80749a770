package io.kubepekko.http.route;

import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import io.kubepekko.http.audit.AuditHandle;
import java.util.List;
import java.util.Optional;
import org.apache.pekko.http.javadsl.model.HttpRequest;

/**
 * The checks a request passes before any handler reads its body: who sent it and whether they may
 * do it (kube-apiserver's authentication, impersonation and authorization filters): {@link
 * CheckingGate} on the server's HTTPS port.
 */
public interface Gate {

    /**
     * Decides whether {@code request} goes on, and as whom.
     *
     * @param info the resource request the path names, empty for a non-resource path
     * @param path the decoded request path
     */
    Passage pass(HttpRequest request, Optional<RequestInfo> info, String path);

    /**
     * The server's admission plugins, for the creates that store nothing ({@code
     * serviceaccounts/{name}/token}); a stored write is admitted inside its collection by the same
     * plugins. By default none.
     */
    default WriteAdmission admission() {
        return WriteAdmission.NONE;
    }

    /** A gate's answer. */
    sealed interface Passage {
        /**
         * The request's audit, told how it ends (a server without auditing has handles that record
         * nothing).
         */
        AuditHandle audit();

        /**
         * The request goes on as {@code user}.
         *
         * @param warnings warnings for the client ({@code Warning} headers), e.g. a malformed
         *     Authorization header kube tolerates
         */
        record Through(UserInfo user, List<String> warnings, AuditHandle audit) implements Passage {
            public Through {
                warnings = List.copyOf(warnings);
            }
        }

        /**
         * The request is answered {@code status} (401, 403 or 400) and goes no further; the answer
         * is reported to {@code audit} as any response is.
         */
        record Stopped(ApiStatus status, AuditHandle audit) implements Passage {}
    }
}
