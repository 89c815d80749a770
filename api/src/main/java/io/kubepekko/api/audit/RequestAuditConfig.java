package io.kubepekko.api.audit;

import java.util.Set;

/**
 * What the policy decided for one request, kube's {@code RequestAuditConfig}: the level, the stages
 * left out, and whether bodies drop their managed fields.
 */
public record RequestAuditConfig(
        AuditLevel level, Set<AuditStage> omitStages, boolean omitManagedFields) {

    /** Not audited: what a server without a policy decides for every request. */
    public static final RequestAuditConfig NONE =
            new RequestAuditConfig(AuditLevel.NONE, Set.of(), false);

    public RequestAuditConfig {
        omitStages = Set.copyOf(omitStages);
    }

    /** Whether any event at all is recorded for the request. */
    public boolean audited() {
        return level != AuditLevel.NONE;
    }

    /** Whether an event of {@code stage} is recorded. */
    public boolean records(AuditStage stage) {
        return audited() && !omitStages.contains(stage);
    }
}
