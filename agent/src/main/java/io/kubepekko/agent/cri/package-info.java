/**
 * The container runtime interface: {@link io.kubepekko.agent.cri.CriRuntime} is the one place in
 * the agent that speaks CRI v1 (gRPC over a unix socket) to containerd or any CRI runtime. Its
 * messages are the classes generated from {@code src/main/proto/runtime/v1/api.proto} (package
 * {@code io.kubepekko.agent.cri.v1}); failures are {@link io.kubepekko.agent.cri.CriError} values.
 */
package io.kubepekko.agent.cri;
