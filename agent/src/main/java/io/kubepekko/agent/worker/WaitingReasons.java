package io.kubepekko.agent.worker;

/**
 * The reasons the kubelet gives a waiting container (its {@code images} and {@code kuberuntime}
 * packages), as this agent writes them into the pod's status and events.
 */
public final class WaitingReasons {
    private WaitingReasons() {}

    public static final String ERR_IMAGE_NEVER_PULL = "ErrImageNeverPull";
    public static final String ERR_IMAGE_PULL = "ErrImagePull";
    public static final String IMAGE_PULL_BACK_OFF = "ImagePullBackOff";
    public static final String CREATE_CONTAINER_CONFIG_ERROR = "CreateContainerConfigError";
    public static final String CREATE_CONTAINER_ERROR = "CreateContainerError";
    public static final String RUN_CONTAINER_ERROR = "RunContainerError";
    public static final String POST_START_HOOK_ERROR = "PostStartHookError";
}
