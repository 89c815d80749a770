/**
 * Pure translation of a pod into what the container runtime is asked to run, as the kubelet builds
 * it: {@code PodSandboxConfig} ({@link io.kubepekko.agent.runtime.SandboxConfigs}), {@code
 * ContainerConfig} ({@link io.kubepekko.agent.runtime.ContainerConfigs}) with its environment
 * ({@link io.kubepekko.agent.runtime.EnvironmentBuilder}) and Linux resources ({@link
 * io.kubepekko.agent.runtime.LinuxResources}), and the pod's volumes ({@link
 * io.kubepekko.agent.runtime.VolumePlanner} plans, {@link io.kubepekko.agent.runtime.VolumeWriter}
 * writes). Nothing here talks to the runtime or the API; ConfigMaps and Secrets come in as {@link
 * io.kubepekko.agent.runtime.PodInputs}, node facts as {@link
 * io.kubepekko.agent.runtime.NodeContext}.
 */
package io.kubepekko.agent.runtime;
