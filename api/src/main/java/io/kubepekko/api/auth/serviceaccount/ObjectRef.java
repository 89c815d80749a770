package io.kubepekko.api.auth.serviceaccount;

/**
 * An object a service-account token names in its {@code kubernetes.io} claim: the service account
 * itself, or the pod, secret or node the token is bound to.
 *
 * @param name the object's name
 * @param uid the object's uid when the token was issued (may be empty for a pod's node that did not
 *     exist then)
 */
public record ObjectRef(String name, String uid) {
    public ObjectRef {
        uid = uid == null ? "" : uid;
    }
}
