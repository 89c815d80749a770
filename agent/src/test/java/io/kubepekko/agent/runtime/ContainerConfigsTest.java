package io.kubepekko.agent.runtime;

import static io.kubepekko.agent.runtime.TestPods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.agent.cri.v1.ContainerConfig;
import io.kubepekko.agent.cri.v1.KeyValue;
import io.kubepekko.agent.cri.v1.Mount;
import io.kubepekko.agent.cri.v1.NamespaceMode;
import io.kubepekko.agent.cri.v1.SecurityProfile;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Against kuberuntime_container.go generateContainerConfig, kubelet_pods.go
 * makeEnvironmentVariables, labels.go.
 */
class ContainerConfigsTest {
    private static final Path ROOT = Path.of("/var/lib/agent");
    private static final List<String> POD_IPS = List.of("10.88.0.5");

    static final JsonNode POD =
            json(
                    """
            {metadata:{name:'api',namespace:'shop',uid:'u-1',labels:{tier:'back'},annotations:{owner:'me'}},
             spec:{nodeName:'node-1',serviceAccountName:'sa',terminationGracePeriodSeconds:45,
               securityContext:{runAsUser:1000,fsGroup:2000},
               volumes:[{name:'data',emptyDir:{}}],
               containers:[{name:'app',image:'busybox:1.36',
                 command:['/bin/sh','-c'],args:['echo $(GREETING) $(MISSING) $$(GREETING)'],workingDir:'/work',
                 stdin:true,tty:true,terminationMessagePath:'/dev/termination-log',terminationMessagePolicy:'File',
                 lifecycle:{preStop:{exec:{command:['sleep','1']}}},
                 ports:[{containerPort:8080,protocol:'TCP'}],
                 envFrom:[{configMapRef:{name:'settings'},prefix:'CFG_'},{secretRef:{name:'creds'}}],
                 env:[{name:'GREETING',value:'hello'},
                      {name:'MESSAGE',value:'$(GREETING) from $(POD_NAME) $(CFG_mode)'},
                      {name:'POD_NAME',valueFrom:{fieldRef:{fieldPath:'metadata.name'}}},
                      {name:'NODE',valueFrom:{fieldRef:{fieldPath:'spec.nodeName'}}},
                      {name:'POD_IP',valueFrom:{fieldRef:{fieldPath:'status.podIP'}}},
                      {name:'HOST_IP',valueFrom:{fieldRef:{fieldPath:'status.hostIP'}}},
                      {name:'TIER',valueFrom:{fieldRef:{fieldPath:"metadata.labels['tier']"}}},
                      {name:'SA',valueFrom:{fieldRef:{fieldPath:'spec.serviceAccountName'}}},
                      {name:'MEM_MI',valueFrom:{resourceFieldRef:{resource:'limits.memory',divisor:'1Mi'}}},
                      {name:'CPU_M',valueFrom:{resourceFieldRef:{resource:'requests.cpu',divisor:'1m'}}},
                      {name:'CPU_LIMIT',valueFrom:{resourceFieldRef:{resource:'limits.cpu'}}},
                      {name:'MODE',valueFrom:{configMapKeyRef:{name:'settings',key:'mode'}}},
                      {name:'OPT',valueFrom:{configMapKeyRef:{name:'settings',key:'nope',optional:true}}},
                      {name:'PASSWORD',valueFrom:{secretKeyRef:{name:'creds',key:'password'}}}],
                 volumeMounts:[{name:'data',mountPath:'/data'},{name:'data',mountPath:'/cache',subPath:'c',readOnly:true}],
                 securityContext:{allowPrivilegeEscalation:false,readOnlyRootFilesystem:true,runAsGroup:3000,
                   capabilities:{add:['NET_ADMIN'],drop:['ALL']}},
                 resources:{requests:{cpu:'250m',memory:'64Mi'},limits:{memory:'128Mi'}}}]}}
            """);

    static final PodInputs INPUTS =
            PodInputs.NONE
                    .withConfigMap(
                            "settings",
                            PodInputs.ConfigMapData.of(Map.of("mode", "fast", "level", "3")))
                    .withSecret(
                            "creds",
                            PodInputs.SecretData.ofStrings(
                                    Map.of("password", "s3cret", "user", "bob")));

    private static ContainerConfigs.Plan build(JsonNode pod, PodInputs inputs) throws Exception {
        NodeContext node = TestPods.node(ROOT);
        VolumePlan plan = VolumePlanner.plan(pod, inputs, node, POD_IPS);
        return ContainerConfigs.build(
                pod,
                TestPods.container(pod, "app"),
                3,
                "sha256:abc",
                POD_IPS,
                inputs,
                plan,
                node,
                "tl-1");
    }

    private static Map<String, String> env(ContainerConfig c) {
        Map<String, String> out = new LinkedHashMap<>();
        for (KeyValue kv : c.getEnvsList()) {
            out.put(kv.getKey(), kv.getValue().toStringUtf8());
        }
        return out;
    }

    @Test
    void representativeContainerFieldByField() throws Exception {
        ContainerConfigs.Plan p = build(POD, INPUTS);
        ContainerConfig c = p.config();
        assertEquals("app", c.getMetadata().getName());
        assertEquals(3, c.getMetadata().getAttempt());
        assertEquals("sha256:abc", c.getImage().getImage());
        assertEquals("busybox:1.36", c.getImage().getUserSpecifiedImage());
        assertEquals(List.of("/bin/sh", "-c"), c.getCommandList());
        assertEquals(List.of("echo hello $(MISSING) $(GREETING)"), c.getArgsList());
        assertEquals("/work", c.getWorkingDir());
        assertEquals("app/3.log", c.getLogPath());
        assertTrue(c.getStdin());
        assertTrue(c.getTty());
        assertEquals(
                Map.of(
                        "io.kubernetes.pod.name",
                        "api",
                        "io.kubernetes.pod.namespace",
                        "shop",
                        "io.kubernetes.pod.uid",
                        "u-1",
                        "io.kubernetes.container.name",
                        "app"),
                c.getLabelsMap());

        Map<String, String> a = c.getAnnotationsMap();
        assertEquals("3", a.get("io.kubernetes.container.restartCount"));
        assertEquals(
                "/dev/termination-log", a.get("io.kubernetes.container.terminationMessagePath"));
        assertEquals("File", a.get("io.kubernetes.container.terminationMessagePolicy"));
        assertEquals("45", a.get("io.kubernetes.pod.terminationGracePeriod"));
        assertEquals(
                "{\"exec\":{\"command\":[\"sleep\",\"1\"]}}",
                a.get("io.kubernetes.container.preStopHandler"));
        assertEquals(
                "[{\"containerPort\":8080,\"protocol\":\"TCP\"}]",
                a.get("io.kubernetes.container.ports"));
        assertEquals("container", a.get("io.kubernetes.container.type"));
        assertTrue(a.get("io.kubernetes.container.hash").matches("[0-9a-f]+"));
        assertFalse(a.containsKey("io.kubernetes.pod.deletionGracePeriod"));

        assertEquals(
                List.of(
                        Mount.newBuilder()
                                .setContainerPath("/data")
                                .setHostPath(
                                        "/var/lib/agent/pods/u-1/volumes/kubernetes.io~empty-dir/data")
                                .build(),
                        Mount.newBuilder()
                                .setContainerPath("/cache")
                                .setReadonly(true)
                                .setHostPath(
                                        "/var/lib/agent/pods/u-1/volumes/kubernetes.io~empty-dir/data/c")
                                .build(),
                        Mount.newBuilder()
                                .setContainerPath("/dev/termination-log")
                                .setHostPath("/var/lib/agent/pods/u-1/containers/app/tl-1")
                                .build()),
                c.getMountsList());
        assertEquals(
                Path.of("/var/lib/agent/pods/u-1/containers/app/tl-1"),
                p.terminationLogHostPath().orElseThrow());
        assertEquals(1, p.mounts().subPathDirs().size());

        var r = c.getLinux().getResources();
        assertEquals(256, r.getCpuShares());
        assertEquals(0, r.getCpuQuota());
        assertEquals(100_000, r.getCpuPeriod());
        assertEquals(128L << 20, r.getMemoryLimitInBytes());
        assertEquals(1000 - (1000 * (64L << 20)) / (8L << 30), r.getOomScoreAdj());

        var sc = c.getLinux().getSecurityContext();
        assertEquals(1000, sc.getRunAsUser().getValue(), "pod runAsUser inherited");
        assertEquals(3000, sc.getRunAsGroup().getValue());
        assertTrue(sc.getReadonlyRootfs());
        assertTrue(sc.getNoNewPrivs());
        assertFalse(sc.getPrivileged());
        assertEquals(List.of("NET_ADMIN"), sc.getCapabilities().getAddCapabilitiesList());
        assertEquals(List.of("ALL"), sc.getCapabilities().getDropCapabilitiesList());
        assertEquals(List.of(2000L), sc.getSupplementalGroupsList());
        assertEquals(SecurityProfile.ProfileType.Unconfined, sc.getSeccomp().getProfileType());
        assertEquals(NamespaceMode.CONTAINER, sc.getNamespaceOptions().getPid());
        assertTrue(sc.getMaskedPathsList().contains("/proc/kcore"));
        assertTrue(sc.getReadonlyPathsList().contains("/proc/sys"));
    }

    @Test
    void environmentResolvesEverySourceInDeclarationOrder() throws Exception {
        Map<String, String> env = env(build(POD, INPUTS).config());
        assertEquals(
                List.of(
                        "CFG_level",
                        "CFG_mode",
                        "password",
                        "user",
                        "GREETING",
                        "MESSAGE",
                        "POD_NAME",
                        "NODE",
                        "POD_IP",
                        "HOST_IP",
                        "TIER",
                        "SA",
                        "MEM_MI",
                        "CPU_M",
                        "CPU_LIMIT",
                        "MODE",
                        "PASSWORD"),
                List.copyOf(env.keySet()),
                "envFrom sorted per source, then env; the optional missing key is left out");
        assertEquals("fast", env.get("CFG_mode"));
        assertEquals("s3cret", env.get("password"));
        // POD_NAME is declared after MESSAGE, so it is not expanded there; envFrom values are
        assertEquals("hello from $(POD_NAME) fast", env.get("MESSAGE"));
        assertEquals("api", env.get("POD_NAME"));
        assertEquals("node-1", env.get("NODE"));
        assertEquals("10.88.0.5", env.get("POD_IP"));
        assertEquals("192.168.1.10", env.get("HOST_IP"));
        assertEquals("back", env.get("TIER"));
        assertEquals("sa", env.get("SA"));
        assertEquals("128", env.get("MEM_MI"));
        assertEquals("250", env.get("CPU_M"));
        assertEquals("4", env.get("CPU_LIMIT"), "no cpu limit: node allocatable (4000m), in cores");
        assertEquals("fast", env.get("MODE"));
        assertEquals("s3cret", env.get("PASSWORD"));
    }

    @Test
    void missingKeysAndObjectsFailWithTheKubeletsMessages() {
        PodInputs noKey =
                PodInputs.NONE
                        .withConfigMap("settings", PodInputs.ConfigMapData.of(Map.of("level", "3")))
                        .withSecret(
                                "creds", PodInputs.SecretData.ofStrings(Map.of("password", "p")));
        PodConfigException e = assertThrows(PodConfigException.class, () -> build(POD, noKey));
        assertEquals(PodConfigException.Reason.CREATE_CONTAINER_CONFIG_ERROR, e.reason());
        assertEquals("couldn't find key mode in ConfigMap shop/settings", e.eventMessage());

        PodInputs noSecretKey =
                INPUTS.withSecret("creds", PodInputs.SecretData.ofStrings(Map.of("user", "u")));
        assertEquals(
                "couldn't find key password in Secret shop/creds",
                assertThrows(PodConfigException.class, () -> build(POD, noSecretKey)).getMessage());

        PodInputs noConfigMap =
                PodInputs.NONE.withSecret(
                        "creds", PodInputs.SecretData.ofStrings(Map.of("password", "p")));
        assertEquals(
                "configmap \"settings\" not found",
                assertThrows(PodConfigException.class, () -> build(POD, noConfigMap)).getMessage());

        PodInputs noSecret =
                PodInputs.NONE.withConfigMap(
                        "settings", PodInputs.ConfigMapData.of(Map.of("mode", "m")));
        assertEquals(
                "secret \"creds\" not found",
                assertThrows(PodConfigException.class, () -> build(POD, noSecret)).getMessage());
    }

    @Test
    void optionalMissingSourcesLeaveVariablesOut() throws Exception {
        JsonNode pod =
                json(
                        """
                {metadata:{name:'p',namespace:'d',uid:'u'},spec:{containers:[{name:'app',image:'i',
                  envFrom:[{configMapRef:{name:'gone',optional:true}},{secretRef:{name:'gone',optional:true}}],
                  env:[{name:'A',valueFrom:{configMapKeyRef:{name:'gone',key:'k',optional:true}}},
                       {name:'B',valueFrom:{secretKeyRef:{name:'gone',key:'k',optional:true}}},
                       {name:'C',value:''},{name:'A2',value:'$(A)'}]}]}}
                """);
        assertEquals(Map.of("C", "", "A2", "$(A)"), env(build(pod, PodInputs.NONE).config()));
    }

    @Test
    void laterDefinitionReplacesTheValueKeepingItsPlace() throws Exception {
        JsonNode pod =
                json(
                        """
                {metadata:{name:'p',namespace:'d',uid:'u'},spec:{containers:[{name:'app',image:'i',
                  envFrom:[{configMapRef:{name:'cm'}}],
                  env:[{name:'X',value:'from-env'},{name:'Y',value:'$(X)-$(X)'},{name:'X',value:'again'}],
                  command:['$(X)','$(Y)']}]}}
                """);
        PodInputs in =
                PodInputs.NONE.withConfigMap(
                        "cm", PodInputs.ConfigMapData.of(Map.of("X", "from-cm", "1bad.key", "v")));
        ContainerConfig c = build(pod, in).config();
        assertEquals(
                List.of("1bad.key", "X", "Y"),
                List.copyOf(env(c).keySet()),
                "kube 1.30+ keeps relaxed names");
        assertEquals("again", env(c).get("X"));
        assertEquals("from-env-from-env", env(c).get("Y"));
        assertEquals(List.of("again", "from-env-from-env"), c.getCommandList());
    }

    @Test
    void unknownVolumeAndBadSubPathAreConfigErrors() {
        JsonNode noVolume =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{containers:[{name:'app',image:'i',"
                                + "volumeMounts:[{name:'v',mountPath:'/v'}]}]}}");
        assertEquals(
                "cannot find volume \"v\" to mount into container \"app\"",
                assertThrows(PodConfigException.class, () -> build(noVolume, PodInputs.NONE))
                        .getMessage());
        JsonNode backstep =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{volumes:[{name:'v',emptyDir:{}}],"
                                + "containers:[{name:'app',image:'i',volumeMounts:[{name:'v',mountPath:'/v',subPath:'a/../../b'}]}]}}");
        assertEquals(
                "unable to provision SubPath `a/../../b`: must not contain '..'",
                assertThrows(PodConfigException.class, () -> build(backstep, PodInputs.NONE))
                        .getMessage());
        JsonNode absolute =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{volumes:[{name:'v',emptyDir:{}}],"
                                + "containers:[{name:'app',image:'i',volumeMounts:[{name:'v',mountPath:'/v',subPath:'/etc'}]}]}}");
        assertEquals(
                "error SubPath `/etc` must not be an absolute path",
                assertThrows(PodConfigException.class, () -> build(absolute, PodInputs.NONE))
                        .getMessage());
    }

    @Test
    void privilegedContainerHasNoMaskedPathsAndRootIsRefusedUnderRunAsNonRoot() throws Exception {
        JsonNode pod =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{containers:[{name:'app',image:'i',"
                                + "securityContext:{privileged:true}}]}}");
        var sc = build(pod, PodInputs.NONE).config().getLinux().getSecurityContext();
        assertTrue(sc.getPrivileged());
        assertEquals(List.of(), sc.getMaskedPathsList());
        assertFalse(sc.getNoNewPrivs(), "allowPrivilegeEscalation unset → no_new_privs false");

        JsonNode root =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{securityContext:{runAsNonRoot:true},"
                                + "containers:[{name:'app',image:'i',securityContext:{runAsUser:0}}]}}");
        assertTrue(
                assertThrows(PodConfigException.class, () -> build(root, PodInputs.NONE))
                        .getMessage()
                        .startsWith("container's runAsUser breaks non-root policy"));
    }
}
