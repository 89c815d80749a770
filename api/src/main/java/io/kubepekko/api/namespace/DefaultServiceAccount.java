package io.kubepekko.api.namespace;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import java.util.Optional;

/**
 * kube's serviceaccounts controller's one ensured account: a ServiceAccount {@code default} in
 * every active namespace, created bare where it is missing and never changed once it exists (a user
 * may edit it, e.g. {@code automountServiceAccountToken: false}).
 */
public final class DefaultServiceAccount implements PublishedObject {

    /** The account a pod without {@code serviceAccountName} runs as. */
    public static final String NAME = "default";

    static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");

    @Override
    public GroupResource resource() {
        return SERVICE_ACCOUNTS;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public ObjectNode created() {
        ObjectNode sa = JsonNodeFactory.instance.objectNode();
        sa.put("apiVersion", "v1");
        sa.put("kind", "ServiceAccount");
        sa.putObject("metadata").put("name", NAME);
        return sa;
    }

    @Override
    public Optional<ObjectNode> corrected(ObjectNode existing) {
        return Optional.empty();
    }
}
