package io.kubepekko.agent.cri;

import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.ContainerMetadata;
import io.kubepekko.agent.cri.v1.ImageSpec;
import io.kubepekko.agent.cri.v1.LinuxPodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PodSandboxMetadata;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Configs as the agent sends them (labels the kubelet's way) and a way to wait for a CRI stage. */
final class CriTestSupport {

    private CriTestSupport() {}

    static PodSandboxConfig sandbox(String pod, String uid) {
        return PodSandboxConfig.newBuilder()
                .setMetadata(
                        PodSandboxMetadata.newBuilder()
                                .setName(pod)
                                .setNamespace("default")
                                .setUid(uid))
                .setHostname(pod)
                .setLogDirectory("/var/log/pods/default_" + pod + "_" + uid)
                .putLabels("io.kubernetes.pod.name", pod)
                .putLabels("io.kubernetes.pod.namespace", "default")
                .putLabels("io.kubernetes.pod.uid", uid)
                .setLinux(
                        LinuxPodSandboxConfig.newBuilder()
                                .setCgroupParent("/kubepods/besteffort/pod" + uid))
                .build();
    }

    static ContainerConfig container(PodSandboxConfig pod, String name, int attempt, String image) {
        return ContainerConfig.newBuilder()
                .setMetadata(ContainerMetadata.newBuilder().setName(name).setAttempt(attempt))
                .setImage(ImageSpec.newBuilder().setImage(image))
                .addCommand("/bin/sh")
                .addArgs("-c")
                .addArgs("sleep 3600")
                .setLogPath(name + "/" + attempt + ".log")
                .putAllLabels(pod.getLabelsMap())
                .putLabels("io.kubernetes.container.name", name)
                .build();
    }

    /** The stage's value, waiting at most 10 s. */
    static <T> T await(CompletionStage<T> stage) {
        try {
            return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException | ExecutionException | TimeoutException e) {
            throw new AssertionError("CRI call did not succeed: " + CriError.of(e), e);
        }
    }

    /** The error the stage failed with, waiting at most 10 s. */
    static CriError failure(CompletionStage<?> stage) {
        ExecutionException e =
                assertThrows(
                        ExecutionException.class,
                        () -> stage.toCompletableFuture().get(10, TimeUnit.SECONDS));
        return CriError.of(e);
    }
}
