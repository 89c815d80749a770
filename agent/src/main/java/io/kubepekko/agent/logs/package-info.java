/**
 * Container logs, as the kubelet's container log manager ({@code pkg/kubelet/logs}) keeps them: the
 * runtime writes each container's stdout and stderr in CRI format to {@code
 * <root-dir>/pod-logs/<ns>_<pod>_<uid>/<container>/<n>.log}; {@link
 * io.kubepekko.agent.logs.ContainerLogManager} rotates the file of every running container that
 * reached {@code --container-log-max-size} and keeps at most {@code --container-log-max-files} per
 * container ({@link io.kubepekko.agent.logs.LogRotationPlan} decides, {@link
 * io.kubepekko.agent.logs.ContainerLogRotator} acts); {@link io.kubepekko.agent.logs.PodLogs}
 * removes a pod's directory with the pod.
 */
package io.kubepekko.agent.logs;
