package io.kubepekko.api.auth.serviceaccount;

import io.kubepekko.api.auth.UserInfo;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The user a valid service-account token stands for, as kube's {@code ServiceAccountInfo}. */
public final class ServiceAccountUser {
    private ServiceAccountUser() {}

    public static final String PREFIX = "system:serviceaccount:";
    public static final String ALL_GROUP = "system:serviceaccounts";
    public static final String POD_NAME = "authentication.kubernetes.io/pod-name";
    public static final String POD_UID = "authentication.kubernetes.io/pod-uid";
    public static final String NODE_NAME = "authentication.kubernetes.io/node-name";
    public static final String NODE_UID = "authentication.kubernetes.io/node-uid";
    public static final String CREDENTIAL_ID = "authentication.kubernetes.io/credential-id";

    /** {@code system:serviceaccount:<ns>:<name>}. */
    public static String userName(String namespace, String name) {
        return PREFIX + namespace + ":" + name;
    }

    /** {@code system:serviceaccounts} and {@code system:serviceaccounts:<ns>}. */
    public static List<String> groups(String namespace) {
        return List.of(ALL_GROUP, ALL_GROUP + ":" + namespace);
    }

    /**
     * The user: pod name and uid in extra when both are known, the node's name (and uid when
     * known), and the credential id {@code JTI=<jti>} when the token has a {@code jti}.
     */
    public static UserInfo of(
            String namespace, ObjectRef serviceAccount, ObjectRef pod, ObjectRef node, String jti) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        if (pod != null && !pod.name().isEmpty() && !pod.uid().isEmpty()) {
            extra.put(POD_NAME, List.of(pod.name()));
            extra.put(POD_UID, List.of(pod.uid()));
        }
        if (jti != null && !jti.isEmpty()) {
            extra.put(CREDENTIAL_ID, List.of("JTI=" + jti));
        }
        if (node != null && !node.name().isEmpty()) {
            extra.put(NODE_NAME, List.of(node.name()));
            if (!node.uid().isEmpty()) {
                extra.put(NODE_UID, List.of(node.uid()));
            }
        }
        return new UserInfo(
                userName(namespace, serviceAccount.name()),
                serviceAccount.uid(),
                groups(namespace),
                extra);
    }
}
