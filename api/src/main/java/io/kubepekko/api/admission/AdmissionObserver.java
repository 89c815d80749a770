package io.kubepekko.api.admission;

/**
 * Where an admission chain reports how long its plugins and its phases took, as kube's {@code
 * apiserver_admission_controller_admission_duration_seconds} and {@code
 * apiserver_admission_step_admission_duration_seconds} record them: per named plugin and phase
 * ({@code admit} for the mutating one, {@code validate} for the refusing one), per operation, and
 * whether it refused the write.
 *
 * <p>Called on the collection's writer for every admitted write: implementations must be cheap and
 * must not allocate per call.
 */
public interface AdmissionObserver {

    /** kube's {@code type} label: the phase a plugin ran in. */
    enum Phase {
        ADMIT("admit"),
        VALIDATE("validate");

        private final String label;

        Phase(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Records nothing. */
    AdmissionObserver NONE =
            new AdmissionObserver() {
                @Override
                public void plugin(
                        String name,
                        Phase phase,
                        Operation operation,
                        boolean rejected,
                        long nanos) {}

                @Override
                public void step(Phase phase, Operation operation, boolean rejected, long nanos) {}
            };

    /** One plugin ran in one phase for {@code nanos}; {@code rejected} when it refused. */
    void plugin(String name, Phase phase, Operation operation, boolean rejected, long nanos);

    /** One whole phase ran for {@code nanos}; {@code rejected} when a plugin refused. */
    void step(Phase phase, Operation operation, boolean rejected, long nanos);

    /** kube's {@code error_type} of a webhook's rejection. */
    enum WebhookRejection {
        /** The webhook answered and denied the write. */
        NO_ERROR("no_error"),
        /** The webhook could not be called or answered badly, and its failure policy is Fail. */
        CALLING_WEBHOOK_ERROR("calling_webhook_error"),
        /** The server failed with the answer (a patch that does not apply, a dry run refused). */
        APISERVER_INTERNAL_ERROR("apiserver_internal_error");

        private final String label;

        WebhookRejection(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One admission webhook's call took {@code nanos} (kube's {@code
     * apiserver_admission_webhook_admission_duration_seconds}); {@code rejected} when it refused
     * the write. Recorded for the webhooks a write asks, not those its rules skip.
     *
     * @param operation kube's operation as the AdmissionReview names it
     */
    default void webhook(
            String name, boolean mutating, String operation, boolean rejected, long nanos) {}

    /**
     * One admission webhook's rejection (kube's {@code
     * apiserver_admission_webhook_rejection_count}), with the status code of a denial (0 when there
     * is none).
     */
    default void webhookRejected(
            String name, boolean mutating, String operation, WebhookRejection why, int code) {}
}
