package io.kubepekko.http.route;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.Verb;
import io.kubepekko.api.codec.FieldValidation;
import io.kubepekko.api.definition.ServedKind;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.store.DeleteOptionsType;
import io.kubepekko.api.store.DeletionOptions;
import io.kubepekko.api.store.WriteOptions;
import io.kubepekko.http.encoding.RequestBodies;
import io.kubepekko.http.route.ResourceHandler.Request;
import java.util.List;

/**
 * A write request's parameters as kube-apiserver reads them: its create, update or patch options
 * from the query (the field manager the User-Agent names when the query names none), its delete
 * options from the body or the query, and its body decoded as its options ask.
 */
final class WriteParameters {

    private static final GroupVersionKind DELETE_OPTIONS =
            new GroupVersionKind("meta.k8s.io", "v1", "DeleteOptions");

    private WriteParameters() {}

    /**
     * The write's options, validated before the body is read (422 on the options kind); {@code
     * leading} are a patch's own problems. Without {@code fieldManager} the User-Agent names the
     * manager.
     */
    static WriteOptions writeOptions(ServedKind kind, Request r, List<FieldError> leading) {
        WriteOptions o = writeOptions(r, leading);
        return kind.isStorageVersion() ? o : o.inVersion(kind.apiVersion());
    }

    /** As {@link #writeOptions(ServedKind, Request, List)}, for a kind served in one version. */
    static WriteOptions writeOptions(Request r, List<FieldError> leading) {
        WriteOptions o =
                WriteOptions.parse(
                        optionsKind(r.info().verb()),
                        leading,
                        r.param("fieldManager").orElse(null),
                        values(r, "dryRun"),
                        r.param("fieldValidation").orElse(""));
        return o.fieldManager() != null
                ? o
                : new WriteOptions(
                        o.dryRun(), managerFromUserAgent(r.userAgent()), o.fieldValidation());
    }

    /**
     * The body decoded as the already validated {@code fieldValidation} of {@code options} asks.
     */
    static RequestBodies.Decoded body(ResourceType type, Request r, WriteOptions options) {
        return RequestBodies.decode(
                r.contentType(), r.body(), type.gvk(), options.fieldValidation());
    }

    /**
     * Without {@code fieldManager}, the manager is the User-Agent up to its first "/", as
     * kube-apiserver names it.
     */
    static String managerFromUserAgent(String userAgent) {
        if (userAgent == null || userAgent.isEmpty()) {
            return null;
        }
        int slash = userAgent.indexOf('/');
        String name = slash < 0 ? userAgent : userAgent.substring(0, slash);
        return name.length() > 128 ? name.substring(0, 128) : name;
    }

    private static String optionsKind(Verb verb) {
        return switch (verb) {
            case CREATE -> "CreateOptions";
            case PATCH -> "PatchOptions";
            default -> "UpdateOptions";
        };
    }

    /**
     * As kube-apiserver reads them: the body when there is one, else the query. The body must
     * declare DeleteOptions (or nothing); it is decoded against its schema leniently, as kube's
     * delete handler uses the non-strict decoder (unknown fields are dropped).
     */
    static DeletionOptions deletionOptions(Request r) {
        if (r.body().length == 0) {
            return DeletionOptions.fromQuery(name -> values(r, name));
        }
        ObjectNode body =
                RequestBodies.decode(
                                r.contentType(), r.body(), DELETE_OPTIONS, FieldValidation.IGNORE)
                        .object();
        DeleteOptionsType.check(body, r.body());
        return DeletionOptions.fromBody(body);
    }

    /**
     * Every value of a query parameter in the order the client sent them, as Go's query parser
     * keeps them ({@code Query.getAll} answers them reversed): the first is the one a single-valued
     * option takes, and a 422 lists them as sent.
     */
    private static List<String> values(Request r, String name) {
        return r.query().toMultiMap().getOrDefault(name, List.of());
    }
}
