package io.kubepekko.agent.runtime;

import static io.kubepekko.agent.runtime.TestPods.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Against the configmap/secret/downwardapi/projected volume plugins' MakePayload/CollectData and
 * their paths.
 */
class VolumePlannerTest {
    private static final Path ROOT = Path.of("/var/lib/agent");

    static final JsonNode POD =
            json(
                    """
            {metadata:{name:'p',namespace:'d',uid:'u-9',labels:{b:'2',a:'1'}},
             spec:{containers:[{name:'app',resources:{limits:{memory:'64Mi'}}}],
               volumes:[{name:'scratch',emptyDir:{}},
                 {name:'host',hostPath:{path:'/srv/data',type:'DirectoryOrCreate'}},
                 {name:'cfg',configMap:{name:'settings',defaultMode:256,items:[{key:'mode',path:'conf/mode.txt'},{key:'level',path:'level',mode:384}]}},
                 {name:'allcfg',configMap:{name:'settings'}},
                 {name:'sec',secret:{secretName:'creds'}},
                 {name:'info',downwardAPI:{items:[{path:'labels',fieldRef:{fieldPath:'metadata.labels'}},
                                                 {path:'mem',resourceFieldRef:{containerName:'app',resource:'limits.memory',divisor:'1Mi'}}]}},
                 {name:'all',projected:{defaultMode:288,sources:[
                     {configMap:{name:'settings',items:[{key:'mode',path:'mode'}]}},
                     {secret:{name:'creds',items:[{key:'password',path:'pw',mode:256}]}},
                     {downwardAPI:{items:[{path:'name',fieldRef:{fieldPath:'metadata.name'}}]}}]}}]}}
            """);

    static final PodInputs INPUTS =
            PodInputs.NONE
                    .withConfigMap(
                            "settings",
                            new PodInputs.ConfigMapData(
                                    Map.of("mode", "fast", "level", "3"),
                                    Map.of("blob", new byte[] {1, 2})))
                    .withSecret(
                            "creds", PodInputs.SecretData.ofStrings(Map.of("password", "s3cret")));

    private static VolumePlan.FileContent file(String text, int mode) {
        return new VolumePlan.FileContent(text.getBytes(StandardCharsets.UTF_8), mode);
    }

    @Test
    void everyKindIsPlannedWithKubesPathsFilesAndModes() throws Exception {
        VolumePlan plan =
                VolumePlanner.plan(POD, INPUTS, TestPods.node(ROOT), List.of("10.88.0.5"));
        Path vols = ROOT.resolve("pods/u-9/volumes");
        assertEquals(
                new VolumePlan.EmptyDir("scratch", vols.resolve("kubernetes.io~empty-dir/scratch")),
                plan.volume("scratch").get());
        assertEquals(
                new VolumePlan.HostPath("host", Path.of("/srv/data"), "DirectoryOrCreate"),
                plan.volume("host").get());

        var cfg = (VolumePlan.Content) plan.volume("cfg").get();
        assertEquals(vols.resolve("kubernetes.io~configmap/cfg"), cfg.hostPath());
        assertEquals(
                Map.of("conf/mode.txt", file("fast", 0400), "level", file("3", 0600)), cfg.files());
        assertTrue(cfg.readOnly());

        var all = (VolumePlan.Content) plan.volume("allcfg").get();
        assertEquals(
                Map.of(
                        "mode",
                        file("fast", 0644),
                        "level",
                        file("3", 0644),
                        "blob",
                        new VolumePlan.FileContent(new byte[] {1, 2}, 0644)),
                all.files());

        var sec = (VolumePlan.Content) plan.volume("sec").get();
        assertEquals(vols.resolve("kubernetes.io~secret/sec"), sec.hostPath());
        assertEquals(Map.of("password", file("s3cret", 0644)), sec.files());

        var info = (VolumePlan.Content) plan.volume("info").get();
        assertEquals(vols.resolve("kubernetes.io~downward-api/info"), info.hostPath());
        assertEquals(
                Map.of("labels", file("a=\"1\"\nb=\"2\"", 0644), "mem", file("64", 0644)),
                info.files());

        var projected = (VolumePlan.Content) plan.volume("all").get();
        assertEquals(vols.resolve("kubernetes.io~projected/all"), projected.hostPath());
        assertEquals(
                Map.of(
                        "mode",
                        file("fast", 0440),
                        "pw",
                        file("s3cret", 0400),
                        "name",
                        file("p", 0440)),
                projected.files());
    }

    @Test
    void missingObjectsAndKeysFailTheMountWithThePluginsMessages() {
        NodeContext node = TestPods.node(ROOT);
        PodConfigException noCm =
                assertThrows(
                        PodConfigException.class,
                        () ->
                                VolumePlanner.plan(
                                        POD,
                                        PodInputs.NONE.withSecret(
                                                "creds",
                                                PodInputs.SecretData.ofStrings(
                                                        Map.of("password", "p"))),
                                        node,
                                        List.of()));
        assertEquals(PodConfigException.Reason.FAILED_MOUNT, noCm.reason());
        assertEquals(
                "MountVolume.SetUp failed for volume \"cfg\" : configmap \"settings\" not found",
                noCm.eventMessage());

        PodInputs noKey =
                INPUTS.withConfigMap("settings", PodInputs.ConfigMapData.of(Map.of("level", "3")));
        assertEquals(
                "MountVolume.SetUp failed for volume \"cfg\" : configmap references non-existent config key: mode",
                assertThrows(
                                PodConfigException.class,
                                () -> VolumePlanner.plan(POD, noKey, node, List.of()))
                        .eventMessage());

        PodInputs noSecret =
                PodInputs.NONE.withConfigMap(
                        "settings", PodInputs.ConfigMapData.of(Map.of("mode", "m", "level", "l")));
        assertEquals(
                "MountVolume.SetUp failed for volume \"sec\" : secret \"creds\" not found",
                assertThrows(
                                PodConfigException.class,
                                () -> VolumePlanner.plan(POD, noSecret, node, List.of()))
                        .eventMessage());

        JsonNode projected =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{volumes:[{name:'all',projected:{sources:["
                                + "{configMap:{name:'a'}},{secret:{name:'b',items:[{key:'k',path:'k'}]}}]}}]}}");
        PodInputs partial =
                PodInputs.NONE.withSecret("b", PodInputs.SecretData.ofStrings(Map.of()));
        assertEquals(
                "MountVolume.SetUp failed for volume \"all\" : [configmap \"a\" not found, references non-existent secret key: k]",
                assertThrows(
                                PodConfigException.class,
                                () -> VolumePlanner.plan(projected, partial, node, List.of()))
                        .eventMessage());
    }

    @Test
    void optionalMissingSourcesGiveEmptyOrPartialVolumes() throws Exception {
        JsonNode pod =
                json(
                        "{metadata:{name:'p',namespace:'d',uid:'u'},spec:{volumes:["
                                + "{name:'c',configMap:{name:'gone',optional:true}},"
                                + "{name:'s',secret:{secretName:'creds',optional:true,items:[{key:'nope',path:'n'},{key:'password',path:'p'}]}}]}}");
        VolumePlan plan = VolumePlanner.plan(pod, INPUTS, TestPods.node(ROOT), List.of());
        assertEquals(Map.of(), ((VolumePlan.Content) plan.volume("c").get()).files());
        assertEquals(
                Map.of("p", file("s3cret", 0644)),
                ((VolumePlan.Content) plan.volume("s").get()).files());
    }

    @Test
    void contentVolumesPlannedAgainKeepThoseWhoseSourceIsGoneAndSkipTheOthers() {
        PodInputs withoutSettings =
                PodInputs.NONE.withSecret(
                        "creds", PodInputs.SecretData.ofStrings(Map.of("password", "new")));
        VolumePlanner.ContentRefresh r =
                VolumePlanner.contentVolumes(
                        POD, withoutSettings, TestPods.node(ROOT), List.of("10.88.0.5"));
        // cfg, allcfg and the projected volume refer to the deleted ConfigMap: left as they are,
        // with kube's message
        assertEquals(Set.of("cfg", "allcfg", "all"), r.failed().keySet());
        assertEquals(
                "MountVolume.SetUp failed for volume \"allcfg\" : configmap \"settings\" not found",
                r.failed().get("allcfg"));
        assertEquals(
                List.of("sec", "info"),
                r.volumes().stream().map(VolumePlan.Content::name).toList());
        assertEquals(file("new", 0644), r.volumes().get(0).files().get("password"));
    }

    @Test
    void aSubPathOfAContentVolumeIsBoundFromItsOwnCopyAndOtherSubPathsFromTheVolume()
            throws Exception {
        JsonNode container =
                json(
                        """
                {name:'app',volumeMounts:[{name:'allcfg',mountPath:'/etc/cfg'},{name:'allcfg',mountPath:'/etc/mode',subPath:'mode'},
                                          {name:'scratch',mountPath:'/data',subPath:'d'}]}
                """);
        VolumePlan plan = VolumePlanner.plan(POD, INPUTS, TestPods.node(ROOT), List.of());
        VolumePlanner.ContainerMounts m = VolumePlanner.mounts(container, plan);
        Path pod = ROOT.resolve("pods/u-9");
        assertEquals(
                pod.resolve("volumes/kubernetes.io~configmap/allcfg").toString(),
                m.mounts().get(0).getHostPath());
        assertEquals(
                pod.resolve("volume-subpaths/allcfg/app/1").toString(),
                m.mounts().get(1).getHostPath());
        assertEquals(
                pod.resolve("volumes/kubernetes.io~empty-dir/scratch/d").toString(),
                m.mounts().get(2).getHostPath());
        assertEquals(
                List.of(
                        new VolumePlanner.SubPathCopy(
                                pod.resolve("volumes/kubernetes.io~configmap/allcfg"),
                                "mode",
                                pod.resolve("volume-subpaths/allcfg/app/1"))),
                m.subPathCopies());
    }

    /** The ServiceAccount plugin's volume, as kube's admission writes it. */
    static final JsonNode TOKEN_POD =
            json(
                    """
            {metadata:{name:'p',namespace:'d',uid:'u-9'},
             spec:{serviceAccountName:'default',containers:[{name:'app'}],
               volumes:[{name:'kube-api-access-abcde',projected:{defaultMode:420,sources:[
                     {serviceAccountToken:{expirationSeconds:3607,path:'token'}},
                     {serviceAccountToken:{audience:'vault',path:'vault/token'}},
                     {configMap:{name:'kube-root-ca.crt',items:[{key:'ca.crt',path:'ca.crt'}]}},
                     {downwardAPI:{items:[{path:'namespace',fieldRef:{apiVersion:'v1',fieldPath:'metadata.namespace'}}]}}]}}]}}
            """);

    @Test
    void aTokenSourceWritesItsTokenWithTheVolumesMode() throws Exception {
        assertEquals(
                Set.of(new TokenRequestKey("", 3607), new TokenRequestKey("vault", 3600)),
                TokenRequestKey.ofPod(TOKEN_POD));
        PodInputs inputs =
                PodInputs.NONE
                        .withConfigMap(
                                "kube-root-ca.crt",
                                PodInputs.ConfigMapData.of(Map.of("ca.crt", "CA")))
                        .withToken(new TokenRequestKey("", 3607), PodInputs.Token.of("jwt-1"))
                        .withToken(new TokenRequestKey("vault", 3600), PodInputs.Token.of("jwt-2"));
        VolumePlan plan = VolumePlanner.plan(TOKEN_POD, inputs, TestPods.node(ROOT), List.of());
        var volume = (VolumePlan.Content) plan.volume("kube-api-access-abcde").get();
        assertEquals(
                ROOT.resolve("pods/u-9/volumes/kubernetes.io~projected/kube-api-access-abcde"),
                volume.hostPath());
        assertEquals(
                Map.of(
                        "token",
                        file("jwt-1", 0644),
                        "vault/token",
                        file("jwt-2", 0644),
                        "ca.crt",
                        file("CA", 0644),
                        "namespace",
                        file("d", 0644)),
                volume.files());
    }

    @Test
    void aTokenThatCouldNotBeHadFailsTheMountWithItsError() {
        PodInputs inputs =
                PodInputs.NONE
                        .withConfigMap(
                                "kube-root-ca.crt",
                                PodInputs.ConfigMapData.of(Map.of("ca.crt", "CA")))
                        .withToken(
                                new TokenRequestKey("", 3607),
                                PodInputs.Token.failed(
                                        "failed to fetch token: serviceaccounts \"default\" not found"))
                        .withToken(new TokenRequestKey("vault", 3600), PodInputs.Token.of("jwt-2"));
        PodConfigException e =
                assertThrows(
                        PodConfigException.class,
                        () ->
                                VolumePlanner.plan(
                                        TOKEN_POD, inputs, TestPods.node(ROOT), List.of()));
        assertEquals(PodConfigException.Reason.FAILED_MOUNT, e.reason());
        assertEquals(
                "MountVolume.SetUp failed for volume \"kube-api-access-abcde\" : failed to fetch"
                        + " token: serviceaccounts \"default\" not found",
                e.eventMessage());
    }
}
