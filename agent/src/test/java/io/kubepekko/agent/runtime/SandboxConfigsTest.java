package io.kubepekko.agent.runtime;

import static io.kubepekko.agent.runtime.TestPods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.NamespaceMode;
import io.kubepekko.agent.cri.v1.PodSandboxConfig;
import io.kubepekko.agent.cri.v1.PortMapping;
import io.kubepekko.agent.cri.v1.Protocol;
import io.kubepekko.agent.cri.v1.SecurityProfile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Against kuberuntime_sandbox.go generatePodSandboxConfig / generatePodSandboxLinuxConfig and
 * labels.go newPodLabels.
 */
class SandboxConfigsTest {
    private static final Path ROOT = Path.of("/var/lib/agent");

    static final JsonNode WEB =
            json(
                    """
            {metadata:{name:'web',namespace:'shop',uid:'1111-2222',labels:{app:'web'},annotations:{note:'x'}},
             spec:{nodeName:'node-1',dnsPolicy:'ClusterFirst',restartPolicy:'Always',terminationGracePeriodSeconds:30,
               securityContext:{runAsUser:1000,runAsGroup:3000,fsGroup:2000,supplementalGroups:[4000,5000],
                                sysctls:[{name:'net.ipv4.ip_local_port_range',value:'1024 65535'}]},
               containers:[{name:'app',image:'busybox:1.36',
                 ports:[{containerPort:80,protocol:'TCP'},{name:'dns',containerPort:53,hostPort:5353,protocol:'UDP'}],
                 resources:{requests:{cpu:'100m'}}}]}}
            """);

    @Test
    void representativePodFieldByField() throws Exception {
        SandboxConfigs.Result r = SandboxConfigs.build(WEB, 2, TestPods.node(ROOT));
        PodSandboxConfig c = r.config();
        assertEquals("web", c.getMetadata().getName());
        assertEquals("shop", c.getMetadata().getNamespace());
        assertEquals("1111-2222", c.getMetadata().getUid());
        assertEquals(2, c.getMetadata().getAttempt());
        assertEquals("web", c.getHostname());
        assertEquals("/var/lib/agent/pod-logs/shop_web_1111-2222", c.getLogDirectory());
        assertEquals(
                Map.of(
                        "app",
                        "web",
                        "io.kubernetes.pod.name",
                        "web",
                        "io.kubernetes.pod.namespace",
                        "shop",
                        "io.kubernetes.pod.uid",
                        "1111-2222"),
                c.getLabelsMap());
        assertEquals(Map.of("note", "x"), c.getAnnotationsMap());
        assertEquals(
                List.of(
                        PortMapping.newBuilder()
                                .setProtocol(Protocol.TCP)
                                .setContainerPort(80)
                                .build(),
                        PortMapping.newBuilder()
                                .setProtocol(Protocol.UDP)
                                .setContainerPort(53)
                                .setHostPort(5353)
                                .build()),
                c.getPortMappingsList());

        assertEquals("/kubepods/burstable/pod1111-2222", c.getLinux().getCgroupParent());
        assertEquals(
                Map.of("net.ipv4.ip_local_port_range", "1024 65535"), c.getLinux().getSysctlsMap());
        var sc = c.getLinux().getSecurityContext();
        assertEquals(1000, sc.getRunAsUser().getValue());
        assertEquals(3000, sc.getRunAsGroup().getValue());
        assertEquals(List.of(2000L, 4000L, 5000L), sc.getSupplementalGroupsList());
        assertFalse(sc.getPrivileged());
        assertEquals(SecurityProfile.ProfileType.RuntimeDefault, sc.getSeccomp().getProfileType());
        assertEquals(NamespaceMode.POD, sc.getNamespaceOptions().getNetwork());
        assertEquals(NamespaceMode.CONTAINER, sc.getNamespaceOptions().getPid());
        assertEquals(NamespaceMode.POD, sc.getNamespaceOptions().getIpc());
    }

    @Test
    void clusterFirstWithoutClusterDnsFallsBackToTheHostWithAWarning() throws Exception {
        SandboxConfigs.Result r = SandboxConfigs.build(WEB, 0, TestPods.node(ROOT));
        assertEquals(List.of("10.0.0.2"), r.config().getDnsConfig().getServersList());
        assertEquals(List.of("example.org"), r.config().getDnsConfig().getSearchesList());
        assertEquals(List.of("edns0"), r.config().getDnsConfig().getOptionsList());
        assertEquals(
                List.of(
                        "pod: \"web_shop(1111-2222)\". kubelet does not have ClusterDNS IP configured and cannot "
                                + "create Pod using \"ClusterFirst\" policy. Falling back to \"Default\" policy."),
                r.warnings());
    }

    @Test
    void clusterFirstWithClusterDnsUsesClusterSearchesAndNdots() throws Exception {
        NodeContext n = TestPods.node(ROOT);
        n =
                new NodeContext(
                        n.nodeName(),
                        n.rootDir(),
                        n.hostIps(),
                        List.of("10.96.0.10"),
                        "cluster.local",
                        n.hostResolvConf(),
                        n.memoryCapacity(),
                        n.allocatableMilliCpu(),
                        n.allocatableMemory(),
                        n.allocatableEphemeralStorage());
        var dns = SandboxConfigs.build(WEB, 0, n).config().getDnsConfig();
        assertEquals(List.of("10.96.0.10"), dns.getServersList());
        assertEquals(
                List.of(
                        "shop.svc.cluster.local",
                        "svc.cluster.local",
                        "cluster.local",
                        "example.org"),
                dns.getSearchesList());
        assertEquals(List.of("ndots:5"), dns.getOptionsList());
    }

    @Test
    void hostNetworkPodHasNoHostnameHostNamespacesAndHostDns() throws Exception {
        JsonNode pod =
                json(
                        """
                {metadata:{name:'h',namespace:'d',uid:'u1'},
                 spec:{hostNetwork:true,hostPID:true,hostIPC:true,dnsPolicy:'ClusterFirst',securityContext:{},
                   containers:[{name:'c',image:'i',securityContext:{privileged:true},
                     resources:{requests:{cpu:'1',memory:'1Gi'},limits:{cpu:'1',memory:'1Gi'}}}]}}
                """);
        PodSandboxConfig c = SandboxConfigs.build(pod, 0, TestPods.node(ROOT)).config();
        assertEquals("", c.getHostname());
        var ns = c.getLinux().getSecurityContext().getNamespaceOptions();
        assertEquals(NamespaceMode.NODE, ns.getNetwork());
        assertEquals(NamespaceMode.NODE, ns.getPid());
        assertEquals(NamespaceMode.NODE, ns.getIpc());
        assertTrue(c.getLinux().getSecurityContext().getPrivileged());
        assertEquals(
                "/kubepods/podu1",
                c.getLinux().getCgroupParent(),
                "Guaranteed sits directly under kubepods");
        assertEquals(List.of("10.0.0.2"), c.getDnsConfig().getServersList());
    }

    @Test
    void dnsPolicyNoneUsesOnlyTheDnsConfig() throws Exception {
        JsonNode pod =
                json(
                        """
                {metadata:{name:'n',namespace:'d',uid:'u'},
                 spec:{dnsPolicy:'None',dnsConfig:{nameservers:['1.1.1.1'],searches:['a.b'],options:[{name:'ndots',value:'2'},{name:'rotate'}]},
                   containers:[{name:'c'}]}}
                """);
        var dns = SandboxConfigs.build(pod, 0, TestPods.node(ROOT)).config().getDnsConfig();
        assertEquals(List.of("1.1.1.1"), dns.getServersList());
        assertEquals(List.of("a.b"), dns.getSearchesList());
        assertEquals(List.of("ndots:2", "rotate"), dns.getOptionsList());
    }

    @Test
    void hostnameSubdomainAndFqdnRules() throws Exception {
        String longName = "a".repeat(62) + "-bc";
        assertEquals(
                "a".repeat(62),
                SandboxConfigs.kernelHostname(
                        json("{metadata:{name:'" + longName + "',namespace:'d'},spec:{}}"), ""),
                "cut to 63, trailing '-' dropped");
        assertEquals(
                "h1",
                SandboxConfigs.kernelHostname(
                        json(
                                "{metadata:{name:'p',namespace:'d'},spec:{hostname:'h1',subdomain:'s'}}"),
                        "cluster.local"));
        assertEquals(
                "h1.s.d.svc.cluster.local",
                SandboxConfigs.kernelHostname(
                        json(
                                "{metadata:{name:'p',namespace:'d'},spec:{hostname:'h1',subdomain:'s',setHostnameAsFQDN:true}}"),
                        "cluster.local"));
        PodConfigException tooLong =
                assertThrows(
                        PodConfigException.class,
                        () ->
                                SandboxConfigs.kernelHostname(
                                        json(
                                                "{metadata:{name:'p',namespace:'d'},spec:{hostname:'"
                                                        + "h".repeat(50)
                                                        + "',subdomain:'s',setHostnameAsFQDN:true}}"),
                                        "cluster.local"));
        assertTrue(
                tooLong.getMessage()
                        .startsWith(
                                "failed to construct FQDN from pod hostname and cluster domain, FQDN hhhh"),
                tooLong.getMessage());
        assertTrue(
                tooLong.getMessage()
                        .endsWith(
                                "is too long (64 characters is the max, 72 characters requested)"),
                tooLong.getMessage());
    }
}
