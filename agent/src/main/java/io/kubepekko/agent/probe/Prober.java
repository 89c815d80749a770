package io.kubepekko.agent.probe;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.CriRuntime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs one probe's handler against one container instance, as the kubelet's prober ({@code
 * runProbe}, pkg/kubelet/prober/prober.go): {@code exec}, {@code httpGet}, {@code tcpSocket} or
 * {@code grpc}. Asynchronous; the stage never fails (a prober error is an {@link
 * ProbeResult#UNKNOWN} outcome).
 */
public final class Prober {

    private final CriRuntime cri;

    public Prober(CriRuntime cri) {
        this.cri = cri;
    }

    /**
     * @param spec the probe
     * @param container the container as the pod spec has it (its {@code ports}, for a named port)
     * @param containerId the running instance to probe
     * @param podIp the pod's primary IP (the node's for a host-network pod); "" if it has none
     */
    public CompletionStage<ProbeOutcome> run(
            ProbeSpec spec, JsonNode container, String containerId, String podIp) {
        JsonNode h = spec.handler();
        CompletionStage<ProbeOutcome> running;
        if (h.path("exec").isObject()) {
            List<String> command = new ArrayList<>();
            h.path("exec").path("command").forEach(c -> command.add(c.asText()));
            running = ExecProbe.run(cri, containerId, command, spec.timeout());
        } else if (h.path("httpGet").isObject()) {
            running = HttpProbe.run(h.path("httpGet"), container, podIp, spec.timeout());
        } else if (h.path("tcpSocket").isObject()) {
            JsonNode tcp = h.path("tcpSocket");
            ProbePort.Resolved port = ProbePort.resolve(tcp.path("port"), container);
            if (port instanceof ProbePort.Resolved.Invalid invalid) {
                return CompletableFuture.completedFuture(ProbeOutcome.error(invalid.message()));
            }
            String host = tcp.path("host").asText("");
            running =
                    TcpProbe.run(
                            host.isEmpty() ? podIp : host,
                            ((ProbePort.Resolved.Port) port).number(),
                            spec.timeout());
        } else if (h.path("grpc").isObject()) {
            JsonNode grpc = h.path("grpc");
            running =
                    GrpcProbe.run(
                            podIp,
                            grpc.path("port").asInt(),
                            grpc.path("service").asText(""),
                            spec.timeout());
        } else {
            return CompletableFuture.completedFuture(ProbeOutcome.error("missing probe handler"));
        }
        return running.exceptionally(t -> ProbeOutcome.error(String.valueOf(t)));
    }
}
