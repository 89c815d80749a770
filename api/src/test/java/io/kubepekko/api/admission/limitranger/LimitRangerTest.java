package io.kubepekko.api.admission.limitranger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionRequest;
import io.kubepekko.api.admission.Mutation;
import io.kubepekko.api.admission.Operation;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * LimitRanger against the examples of kube's task pages (default requests and limits, minimum and
 * maximum constraints per container, pod and claim, the limit/request ratio) and kube's rules for
 * several LimitRanges in one namespace.
 */
class LimitRangerTest {

    private static final UserInfo EVE = UserInfo.of("eve", List.of());

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** A LimitRange {@code name} in {@code ns} with {@code limits} (a JSON array). */
    static ObjectNode limitRange(String name, String limits) {
        return obj(
                "{'apiVersion':'v1','kind':'LimitRange','metadata':{'name':'"
                        + name
                        + "','namespace':'ns'},'spec':{'limits':"
                        + limits
                        + "}}");
    }

    /** A pod {@code name} with one container {@code c} with {@code resources} (a JSON object). */
    static ObjectNode pod(String name, String resources) {
        return obj(
                "{'apiVersion':'v1','kind':'Pod','metadata':{'name':'"
                        + name
                        + "','namespace':'ns'},'spec':{'containers':[{'name':'"
                        + name
                        + "-ctr','image':'nginx','resources':"
                        + resources
                        + "}]}}");
    }

    static AdmissionRequest create(GroupResource resource, ObjectNode object) {
        return new AdmissionRequest(
                Operation.CREATE,
                EVE,
                resource,
                "",
                "ns",
                object.path("metadata").path("name").asText(),
                object,
                null,
                false);
    }

    private static LimitRanger ranger(ObjectNode... limitRanges) {
        return new LimitRanger(LimitRangeIndex.of(List.of(limitRanges)));
    }

    /** The pod as LimitRanger's mutating phase leaves it. */
    private static ObjectNode admitted(LimitRanger ranger, ObjectNode pod) {
        Mutation m = ranger.admit(create(LimitRanger.PODS, pod));
        return ((Mutation.Admitted) m).object();
    }

    /** The 403 message of the refusing phase, empty when the object is admitted. */
    private static Optional<String> refused(
            LimitRanger ranger, GroupResource resource, ObjectNode object) {
        return ranger.refusal(create(resource, object)).map(ApiStatus::message);
    }

    /** Mutation then refusal of a pod create, as the chain runs them. */
    private static Optional<String> podRefused(LimitRanger ranger, ObjectNode pod) {
        return refused(ranger, LimitRanger.PODS, admitted(ranger, pod));
    }

    private static String annotation(ObjectNode pod) {
        return pod.path("metadata").path("annotations").path(ContainerDefaults.ANNOTATION).asText();
    }

    @Nested
    class Defaults {
        // kube's task "Configure Default Memory Requests and Limits for a Namespace"
        private final LimitRanger memory =
                ranger(
                        limitRange(
                                "mem-limit-range",
                                "[{'default':{'memory':'512Mi'},'defaultRequest':{'memory':'256Mi'},"
                                        + "'type':'Container'}]"));

        @Test
        void aContainerWithoutResourcesGetsTheDefaultRequestAndLimit() {
            ObjectNode pod = pod("default-mem-demo", "{}");
            ObjectNode out = admitted(memory, pod);
            assertEquals(
                    obj("{'limits':{'memory':'512Mi'},'requests':{'memory':'256Mi'}}"),
                    out.at("/spec/containers/0/resources"));
            assertEquals(
                    "LimitRanger plugin set: memory request for container default-mem-demo-ctr;"
                            + " memory limit for container default-mem-demo-ctr",
                    annotation(out));
            assertEquals(pod("default-mem-demo", "{}"), pod, "the request's pod is not changed");
            assertEquals(Optional.empty(), refused(memory, LimitRanger.PODS, out));
        }

        @Test
        void aContainerWithOnlyARequestGetsOnlyTheDefaultLimit() {
            ObjectNode out =
                    admitted(memory, pod("default-mem-demo-3", "{'requests':{'memory':'128Mi'}}"));
            assertEquals(
                    obj("{'requests':{'memory':'128Mi'},'limits':{'memory':'512Mi'}}"),
                    out.at("/spec/containers/0/resources"));
            assertEquals(
                    "LimitRanger plugin set: memory limit for container default-mem-demo-3-ctr",
                    annotation(out));
        }

        @Test
        void aPodThatNamesEverythingIsLeftAsItIs() {
            ObjectNode pod =
                    pod(
                            "default-mem-demo-2",
                            "{'limits':{'memory':'1Gi'},'requests':{'memory':'1Gi'}}");
            assertSame(pod, admitted(memory, pod));
        }

        @Test
        void quantitiesAreSetAsKubePrintsThemAndInitContainersAreNamedSo() {
            // kube's task "Configure Default CPU Requests and Limits for a Namespace"
            LimitRanger cpu =
                    ranger(
                            limitRange(
                                    "cpu-limit-range",
                                    "[{'default':{'cpu':1},'defaultRequest':{'cpu':0.5},"
                                            + "'type':'Container'}]"));
            ObjectNode pod = pod("default-cpu-demo", "{}");
            ((ObjectNode) pod.path("spec"))
                    .putArray("initContainers")
                    .addObject()
                    .put("name", "setup")
                    .put("image", "busybox");
            ObjectNode out = admitted(cpu, pod);
            assertEquals(
                    obj("{'limits':{'cpu':'1'},'requests':{'cpu':'500m'}}"),
                    out.at("/spec/initContainers/0/resources"));
            assertEquals(
                    "LimitRanger plugin set: cpu request for container default-cpu-demo-ctr;"
                            + " cpu limit for container default-cpu-demo-ctr;"
                            + " cpu request for init container setup;"
                            + " cpu limit for init container setup",
                    annotation(out));
        }

        @Test
        void aContainerItemWithOnlyBoundsDefaultsLimitToMaxAndRequestToTheLimit() {
            // kube's LimitRange defaults: default from max, defaultRequest from default
            LimitRanger bounds =
                    ranger(
                            limitRange(
                                    "cpu-min-max-demo-lr",
                                    "[{'max':{'cpu':'800m'},'min':{'cpu':'200m'},"
                                            + "'type':'Container'}]"));
            ObjectNode out = admitted(bounds, pod("constraints-cpu-demo", "{}"));
            assertEquals(
                    obj("{'limits':{'cpu':'800m'},'requests':{'cpu':'800m'}}"),
                    out.at("/spec/containers/0/resources"));
        }
    }

    @Nested
    class Constraints {
        // kube's task "Configure Minimum and Maximum CPU Constraints for a Namespace"
        private final LimitRanger cpu =
                ranger(
                        limitRange(
                                "cpu-min-max-demo-lr",
                                "[{'max':{'cpu':'800m'},'min':{'cpu':'200m'},'type':'Container'}]"));

        // kube's task "Configure Minimum and Maximum Memory Constraints for a Namespace"
        private final LimitRanger memory =
                ranger(
                        limitRange(
                                "mem-min-max-demo-lr",
                                "[{'max':{'memory':'1Gi'},'min':{'memory':'500Mi'},"
                                        + "'type':'Container'}]"));

        @Test
        void aLimitAboveTheMaximumIsRefusedWithKubesMessage() {
            assertEquals(
                    Optional.of(
                            "pods \"constraints-cpu-demo-2\" is forbidden: maximum cpu usage per"
                                    + " Container is 800m, but limit is 1500m"),
                    podRefused(
                            cpu,
                            pod(
                                    "constraints-cpu-demo-2",
                                    "{'limits':{'cpu':'1.5'},'requests':{'cpu':'500m'}}")));
            assertEquals(
                    Optional.of(
                            "pods \"constraints-mem-demo-2\" is forbidden: maximum memory usage"
                                    + " per Container is 1Gi, but limit is 1536Mi"),
                    podRefused(
                            memory,
                            pod(
                                    "constraints-mem-demo-2",
                                    "{'limits':{'memory':'1.5Gi'},'requests':{'memory':'800Mi'}}")));
        }

        @Test
        void aRequestBelowTheMinimumIsRefusedWithKubesMessage() {
            assertEquals(
                    Optional.of(
                            "pods \"constraints-mem-demo-3\" is forbidden: minimum memory usage"
                                    + " per Container is 500Mi, but request is 100Mi"),
                    podRefused(
                            memory,
                            pod(
                                    "constraints-mem-demo-3",
                                    "{'limits':{'memory':'800Mi'},'requests':{'memory':'100Mi'}}")));
        }

        @Test
        void withinTheBoundsIsAdmitted() {
            assertEquals(
                    Optional.empty(),
                    podRefused(
                            cpu,
                            pod(
                                    "constraints-cpu-demo",
                                    "{'limits':{'cpu':'800m'},'requests':{'cpu':'500m'}}")));
        }

        @Test
        void everyViolationOfTheLimitRangeIsListedOnce() {
            assertEquals(
                    Optional.of(
                            "pods \"both\" is forbidden: [minimum cpu usage per Container is 200m,"
                                    + " but request is 100m, maximum cpu usage per Container is"
                                    + " 800m, but limit is 1500m]"),
                    podRefused(
                            cpu,
                            pod("both", "{'limits':{'cpu':'1.5'},'requests':{'cpu':'100m'}}")));
        }

        @Test
        void aMissingRequestOrLimitIsNamed() {
            LimitRanger noDefaults =
                    ranger(
                            limitRange(
                                    "pod-bounds",
                                    "[{'max':{'cpu':'2'},'min':{'cpu':'1'},'type':'Pod'}]"));
            assertEquals(
                    Optional.of(
                            "pods \"bare\" is forbidden: [minimum cpu usage per Pod is 1.  No"
                                    + " request is specified, maximum cpu usage per Pod is 2.  No"
                                    + " limit is specified]"),
                    podRefused(noDefaults, pod("bare", "{}")));
        }

        @Test
        void theLimitToRequestRatioIsKeptWithKubesArithmetic() {
            LimitRanger ratio =
                    ranger(
                            limitRange(
                                    "ratio",
                                    "[{'maxLimitRequestRatio':{'cpu':'2','memory':'1.5'},"
                                            + "'type':'Container'}]"));
            assertEquals(
                    Optional.of(
                            "pods \"burst\" is forbidden: cpu max limit to request ratio per"
                                    + " Container is 2, but provided ratio is 4.000000"),
                    podRefused(
                            ratio,
                            pod(
                                    "burst",
                                    "{'limits':{'cpu':'400m','memory':'1Gi'},"
                                            + "'requests':{'cpu':'100m','memory':'1Gi'}}")));
            assertEquals(
                    Optional.of(
                            "pods \"no-req\" is forbidden: memory max limit to request ratio per"
                                    + " Container is 1500m, but no request is specified or request"
                                    + " is 0"),
                    podRefused(
                            ratio,
                            pod(
                                    "no-req",
                                    "{'limits':{'cpu':'200m','memory':'1Gi'},"
                                            + "'requests':{'cpu':'100m'}}")));
            assertEquals(
                    Optional.empty(),
                    podRefused(
                            ratio,
                            pod(
                                    "even",
                                    "{'limits':{'cpu':'200m','memory':'3Gi'},"
                                            + "'requests':{'cpu':'100m','memory':'2Gi'}}")));
        }

        @Test
        void aPodItemBoundsTheSumOfItsContainersInTheFirstOnesFormat() {
            LimitRanger perPod =
                    ranger(
                            limitRange(
                                    "pod-max",
                                    "[{'max':{'cpu':'2','memory':'1Gi'},'type':'Pod'}]"));
            ObjectNode pod =
                    pod(
                            "two",
                            "{'limits':{'cpu':'1500m','memory':'500Mi'},"
                                    + "'requests':{'cpu':'1','memory':'500Mi'}}");
            ((ArrayNode) pod.path("spec").path("containers"))
                    .add(
                            obj(
                                    "{'name':'b','image':'nginx','resources':{'limits':{'cpu':'1500m',"
                                            + "'memory':'1Gi'},'requests':{'cpu':'500m','memory':'1Gi'}}}"));
            assertEquals(
                    Optional.of(
                            "pods \"two\" is forbidden: [maximum cpu usage per Pod is 2, but limit"
                                    + " is 3, maximum memory usage per Pod is 1Gi, but limit is"
                                    + " 1524Mi]"),
                    podRefused(perPod, pod));
        }

        @Test
        void aPodItemCountsSidecarsAndTheLargestInitContainer() {
            LimitRanger perPod =
                    ranger(limitRange("pod-min", "[{'min':{'cpu':'5'},'type':'Pod'}]"));
            ObjectNode pod = pod("init", "{'requests':{'cpu':'1'}}");
            ObjectNode spec = (ObjectNode) pod.path("spec");
            spec.putArray("initContainers")
                    .add(
                            obj(
                                    "{'name':'sidecar','image':'x','restartPolicy':'Always',"
                                            + "'resources':{'requests':{'cpu':'1'}}}"))
                    .add(obj("{'name':'setup','image':'x','resources':{'requests':{'cpu':'3'}}}"));
            // containers and sidecar 2; the setup container with the sidecar beside it 4
            assertEquals(
                    Optional.of(
                            "pods \"init\" is forbidden: minimum cpu usage per Pod is 5, but"
                                    + " request is 4"),
                    refused(perPod, LimitRanger.PODS, pod));
        }
    }

    @Nested
    class SeveralLimitRanges {
        private final ObjectNode cpuDefaults =
                limitRange(
                        "a-cpu",
                        "[{'default':{'cpu':'1'},'defaultRequest':{'cpu':'500m'},"
                                + "'max':{'cpu':'2'},'type':'Container'}]");
        private final ObjectNode memoryDefaults =
                limitRange(
                        "b-memory",
                        "[{'default':{'cpu':'2','memory':'256Mi'},"
                                + "'defaultRequest':{'cpu':'2','memory':'256Mi'},"
                                + "'max':{'cpu':'4','memory':'512Mi'},'type':'Container'}]");

        @Test
        void eachSetsWhatTheOnesBeforeLeftUnsetAndTheLastToSetSomethingAnnotates() {
            ObjectNode out = admitted(ranger(memoryDefaults, cpuDefaults), pod("p", "{}"));
            assertEquals(
                    obj(
                            "{'limits':{'cpu':'1','memory':'256Mi'},"
                                    + "'requests':{'cpu':'500m','memory':'256Mi'}}"),
                    out.at("/spec/containers/0/resources"));
            assertEquals(
                    "LimitRanger plugin set: memory request for container p-ctr;"
                            + " memory limit for container p-ctr",
                    annotation(out));
        }

        @Test
        void everyLimitRangeIsCheckedAndTheFirstOneBrokenAnswers() {
            LimitRanger both = ranger(cpuDefaults, memoryDefaults);
            assertEquals(
                    Optional.of(
                            "pods \"big\" is forbidden: maximum memory usage per Container is"
                                    + " 512Mi, but limit is 1Gi"),
                    podRefused(
                            both,
                            pod(
                                    "big",
                                    "{'limits':{'cpu':'1','memory':'1Gi'},"
                                            + "'requests':{'cpu':'1','memory':'1Gi'}}")));
            assertEquals(
                    Optional.of(
                            "pods \"huge\" is forbidden: maximum cpu usage per Container is 2,"
                                    + " but limit is 3"),
                    podRefused(
                            both,
                            pod(
                                    "huge",
                                    "{'limits':{'cpu':'3','memory':'1Gi'},"
                                            + "'requests':{'cpu':'1','memory':'1Gi'}}")));
        }

        @Test
        void aLimitRangeOfAnotherNamespaceDoesNotApply() {
            ObjectNode elsewhere = cpuDefaults.deepCopy();
            ((ObjectNode) elsewhere.path("metadata")).put("namespace", "other");
            ObjectNode pod = pod("p", "{}");
            assertSame(pod, admitted(ranger(elsewhere), pod));
        }
    }

    @Nested
    class Claims {
        // kube's task "Limit Storage Consumption"
        private final LimitRanger storage =
                ranger(
                        limitRange(
                                "storagelimits",
                                "[{'type':'PersistentVolumeClaim','max':{'storage':'2Gi'},"
                                        + "'min':{'storage':'1Gi'}}]"));

        private ObjectNode claim(String name, String storage) {
            return obj(
                    "{'apiVersion':'v1','kind':'PersistentVolumeClaim','metadata':{'name':'"
                            + name
                            + "'},'spec':{'accessModes':['ReadWriteOnce'],"
                            + "'resources':{'requests':{'storage':'"
                            + storage
                            + "'}}}}");
        }

        @Test
        void aClaimOutsideTheBoundsIsRefusedAndNotChanged() {
            ObjectNode big = claim("pvc-limit-greater", "5Gi");
            assertSame(
                    big,
                    ((Mutation.Admitted) storage.admit(create(LimitRanger.CLAIMS, big))).object());
            assertEquals(
                    Optional.of(
                            "persistentvolumeclaims \"pvc-limit-greater\" is forbidden: maximum"
                                    + " storage usage per PersistentVolumeClaim is 2Gi, but request"
                                    + " is 5Gi"),
                    refused(storage, LimitRanger.CLAIMS, big));
            assertEquals(
                    Optional.of(
                            "persistentvolumeclaims \"pvc-limit-lower\" is forbidden: minimum"
                                    + " storage usage per PersistentVolumeClaim is 1Gi, but request"
                                    + " is 500Mi"),
                    refused(storage, LimitRanger.CLAIMS, claim("pvc-limit-lower", "500Mi")));
            assertEquals(
                    Optional.empty(), refused(storage, LimitRanger.CLAIMS, claim("ok", "1500Mi")));
        }

        @Test
        void aClaimIsCheckedOnUpdateToo() {
            AdmissionRequest update =
                    new AdmissionRequest(
                            Operation.UPDATE,
                            EVE,
                            LimitRanger.CLAIMS,
                            "",
                            "ns",
                            "c",
                            claim("c", "3Gi"),
                            claim("c", "1Gi"),
                            false);
            assertTrue(storage.refusal(update).isPresent());
        }
    }

    @Nested
    class WhatIsJudged {
        private final LimitRanger max =
                ranger(limitRange("max", "[{'max':{'cpu':'1'},'type':'Container'}]"));
        private final ObjectNode big = pod("p", "{'limits':{'cpu':'2'},'requests':{'cpu':'2'}}");

        private AdmissionRequest request(Operation op, String subresource, ObjectNode old) {
            return new AdmissionRequest(
                    op, EVE, LimitRanger.PODS, subresource, "ns", "p", big, old, false);
        }

        @Test
        void podsOnCreateAndOnResizeButNotOnOtherUpdatesOrSubresources() {
            assertTrue(max.refusal(request(Operation.CREATE, "", null)).isPresent());
            assertTrue(max.refusal(request(Operation.UPDATE, "resize", big)).isPresent());
            assertTrue(max.refusal(request(Operation.UPDATE, "", big)).isEmpty());
            assertTrue(max.refusal(request(Operation.UPDATE, "status", big)).isEmpty());
            AdmissionRequest other =
                    new AdmissionRequest(
                            Operation.CREATE,
                            EVE,
                            new GroupResource("", "configmaps"),
                            "",
                            "ns",
                            "p",
                            big,
                            null,
                            false);
            assertTrue(max.refusal(other).isEmpty());
        }

        @Test
        void nothingWhoseStoredObjectIsBeingDeleted() {
            ObjectNode deleting = big.deepCopy();
            ((ObjectNode) deleting.path("metadata"))
                    .put("deletionTimestamp", "2026-01-01T00:00:00Z");
            assertTrue(max.refusal(request(Operation.UPDATE, "resize", deleting)).isEmpty());
        }

        @Test
        void theIndexFollowsPutsAndRemoves() {
            LimitRangeIndex index = new LimitRangeIndex();
            assertTrue(index.readiness().isPresent());
            index.replace(new ArrayList<>());
            assertEquals(Optional.empty(), index.readiness());
            LimitRanger ranger = new LimitRanger(index);
            assertTrue(ranger.refusal(request(Operation.CREATE, "", null)).isEmpty());
            ObjectNode lr = limitRange("max", "[{'max':{'cpu':'1'},'type':'Container'}]");
            index.put(lr);
            assertTrue(ranger.refusal(request(Operation.CREATE, "", null)).isPresent());
            index.remove(lr);
            assertTrue(ranger.refusal(request(Operation.CREATE, "", null)).isEmpty());
        }
    }
}
