/**
 * The node's pod management, as the kubelet's config source, pod manager and status manager: {@link
 * io.kubepekko.agent.manager.PodManager} watches the pods bound to the node and owns one {@link
 * io.kubepekko.agent.worker.PodWorker} per pod uid; {@link
 * io.kubepekko.agent.manager.StatusManager} writes their statuses to {@code pods/{name}/status}.
 * The pure rules ({@link io.kubepekko.agent.manager.GracePeriod}, {@link
 * io.kubepekko.agent.manager.PodReferences}, {@link io.kubepekko.agent.manager.PodChange}, {@link
 * io.kubepekko.agent.manager.StatusPatch}) are unit-tested apart from the actors.
 */
package io.kubepekko.agent.manager;
