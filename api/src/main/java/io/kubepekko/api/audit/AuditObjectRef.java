package io.kubepekko.api.audit;

/**
 * The object a request is about, kube's {@code audit.ObjectReference}; every field may be empty.
 *
 * @param resource the plural resource
 * @param namespace the namespace
 * @param name the object's name
 * @param uid the object's uid, from the request body when it carries one
 * @param apiGroup the API group, empty for the core group
 * @param apiVersion the API version
 * @param resourceVersion the resource version, from the request body when it carries one
 * @param subresource the subresource
 */
public record AuditObjectRef(
        String resource,
        String namespace,
        String name,
        String uid,
        String apiGroup,
        String apiVersion,
        String resourceVersion,
        String subresource) {

    public AuditObjectRef {
        resource = orEmpty(resource);
        namespace = orEmpty(namespace);
        name = orEmpty(name);
        uid = orEmpty(uid);
        apiGroup = orEmpty(apiGroup);
        apiVersion = orEmpty(apiVersion);
        resourceVersion = orEmpty(resourceVersion);
        subresource = orEmpty(subresource);
    }

    /**
     * The empty fields among namespace, name, uid and resource version filled from the request
     * body's metadata, as kube's {@code LogRequestObject} does.
     */
    AuditObjectRef fillFrom(String bodyNamespace, String bodyName, String bodyUid, String bodyRv) {
        return new AuditObjectRef(
                resource,
                namespace.isEmpty() ? bodyNamespace : namespace,
                name.isEmpty() ? bodyName : name,
                uid.isEmpty() ? bodyUid : uid,
                apiGroup,
                apiVersion,
                resourceVersion.isEmpty() ? bodyRv : resourceVersion,
                subresource);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
