package io.kubepekko.agent.runtime;

/**
 * A pod or container the agent cannot hand to the runtime yet, with the reason and message the
 * kubelet shows. {@link Reason#CREATE_CONTAINER_CONFIG_ERROR}: the container waits with that reason
 * and this message (e.g. {@code couldn't find key X in ConfigMap ns/name}); {@link
 * Reason#FAILED_MOUNT}: the pod stays {@code ContainerCreating} and gets a Warning event {@code
 * FailedMount} whose message is {@link #eventMessage()} ({@code MountVolume.SetUp failed for volume
 * "v" : configmap "x" not found}), as the kubelet's volume manager does.
 */
public final class PodConfigException extends Exception {

    /** Which kube mechanism reports the problem. */
    public enum Reason {
        CREATE_CONTAINER_CONFIG_ERROR("CreateContainerConfigError"),
        FAILED_MOUNT("FailedMount"),
        /** The sandbox config could not be built (kube's {@code CreatePodSandboxError} event). */
        CREATE_POD_SANDBOX_ERROR("FailedCreatePodSandBox");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private final Reason reason;
    private final String volume;

    private PodConfigException(Reason reason, String volume, String message) {
        super(message);
        this.reason = reason;
        this.volume = volume;
    }

    public static PodConfigException containerConfig(String message) {
        return new PodConfigException(Reason.CREATE_CONTAINER_CONFIG_ERROR, null, message);
    }

    public static PodConfigException mount(String volume, String message) {
        return new PodConfigException(Reason.FAILED_MOUNT, volume, message);
    }

    public static PodConfigException sandbox(String message) {
        return new PodConfigException(Reason.CREATE_POD_SANDBOX_ERROR, null, message);
    }

    public Reason reason() {
        return reason;
    }

    /** The message of the pod's event or container's waiting state. */
    public String eventMessage() {
        return reason == Reason.FAILED_MOUNT
                ? "MountVolume.SetUp failed for volume \"" + volume + "\" : " + getMessage()
                : getMessage();
    }
}
