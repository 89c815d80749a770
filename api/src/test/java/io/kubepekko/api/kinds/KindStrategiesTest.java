package io.kubepekko.api.kinds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.definition.BuiltinDefinitions;
import io.kubepekko.api.definition.BuiltinKinds;
import io.kubepekko.api.definition.KindDefinition;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class KindStrategiesTest {

    private static final String POD_SPEC = "{'containers':[{'name':'app','image':'nginx:1.27'}]}";
    private static final String TEMPLATE =
            "{'metadata':{'labels':{'app':'web'}},'spec':" + POD_SPEC + "}";

    static ObjectNode obj(String json) {
        try {
            return (ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Defaults, preparation, then create validation, as the write pipeline runs them. */
    static List<String> create(String group, String kind, String json) {
        Strategy s = BuiltinDefinitions.strategy(group, kind);
        ObjectNode o = obj(json);
        s.applyDefaults(o);
        s.prepareForCreate(o);
        return s.validateCreate(o).stream().map(FieldError::toString).toList();
    }

    static List<String> update(String group, String kind, String oldJson, String newJson) {
        Strategy s = BuiltinDefinitions.strategy(group, kind);
        ObjectNode old = obj(oldJson);
        ObjectNode now = obj(newJson);
        s.applyDefaults(old);
        s.prepareForCreate(old);
        s.applyDefaults(now);
        s.prepareForUpdate(now, old);
        return s.validateUpdate(now, old).stream().map(FieldError::toString).toList();
    }

    static ObjectNode defaulted(String group, String kind, String json) {
        ObjectNode o = obj(json);
        BuiltinDefinitions.strategy(group, kind).applyDefaults(o);
        return o;
    }

    // --- valid objects of every kind -------------------------------------------------------------

    static Stream<Arguments> validObjects() {
        return Stream.of(
                Arguments.of("", "Pod", "{'spec':" + POD_SPEC + "}"),
                Arguments.of(
                        "",
                        "ConfigMap",
                        "{'data':{'app.properties':'a=b','KEY_1':'v'},'binaryData':{'logo.png':'AAEC'}}"),
                Arguments.of(
                        "",
                        "Secret",
                        "{'type':'kubernetes.io/tls','data':{'tls.crt':'YQ==','tls.key':'Yg=='}}"),
                Arguments.of(
                        "",
                        "Secret",
                        "{'type':'kubernetes.io/dockerconfigjson','data':{'.dockerconfigjson':'e30='}}"),
                Arguments.of(
                        "",
                        "Service",
                        "{'spec':{'selector':{'app':'web'},'ports':[{'port':80,'targetPort':'http'}]}}"),
                Arguments.of(
                        "",
                        "Service",
                        "{'spec':{'type':'ExternalName','externalName':'db.example.com.'}}"),
                Arguments.of(
                        "", "Service", "{'spec':{'clusterIP':'None','selector':{'app':'db'}}}"),
                Arguments.of("", "Namespace", "{}"),
                Arguments.of(
                        "",
                        "Node",
                        "{'spec':{'podCIDR':'10.244.0.0/24','taints':[{'key':'dedicated','value':'gpu','effect':'NoSchedule'}]}}"),
                Arguments.of(
                        "",
                        "Endpoints",
                        "{'subsets':[{'addresses':[{'ip':'10.0.0.1'},{'ip':'fd00::1'}],'ports':[{'port':80}]}]}"),
                Arguments.of(
                        "",
                        "Event",
                        "{'metadata':{'namespace':'default'},'involvedObject':{'kind':'Pod','namespace':'default','name':'p'},'reason':'Started'}"),
                Arguments.of(
                        "",
                        "LimitRange",
                        "{'spec':{'limits':[{'type':'Container','default':{'cpu':'500m','memory':'128Mi'}}]}}"),
                Arguments.of(
                        "",
                        "ResourceQuota",
                        "{'spec':{'hard':{'pods':'10','requests.cpu':'4','count/deployments.apps':'5'}}}"),
                Arguments.of(
                        "",
                        "PersistentVolume",
                        "{'spec':{'capacity':{'storage':'1Gi'},'accessModes':['ReadWriteOnce'],'hostPath':{'path':'/data'}}}"),
                Arguments.of(
                        "",
                        "PersistentVolumeClaim",
                        "{'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'1Gi'}}}}"),
                Arguments.of("", "ServiceAccount", "{}"),
                Arguments.of(
                        "apps",
                        "Deployment",
                        "{'spec':{'selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}"),
                Arguments.of(
                        "apps",
                        "ReplicaSet",
                        "{'spec':{'selector':{'matchExpressions':[{'key':'app','operator':'In','values':['web']}]},'template':"
                                + TEMPLATE
                                + "}}"),
                Arguments.of(
                        "apps",
                        "StatefulSet",
                        "{'spec':{'serviceName':'web','selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}"),
                Arguments.of(
                        "apps",
                        "DaemonSet",
                        "{'spec':{'selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}"),
                Arguments.of(
                        "batch",
                        "Job",
                        "{'metadata':{'name':'pi','uid':'u-1'},'spec':{'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'pi','image':'perl'}]}}}}"),
                Arguments.of(
                        "batch",
                        "CronJob",
                        "{'spec':{'schedule':'*/5 * * * *','jobTemplate':{'spec':{'template':{'spec':{'restartPolicy':'OnFailure','containers':[{'name':'c','image':'busybox'}]}}}}}}"),
                Arguments.of(
                        "coordination.k8s.io",
                        "Lease",
                        "{'spec':{'holderIdentity':'a','leaseDurationSeconds':15}}"),
                Arguments.of(
                        "networking.k8s.io",
                        "Ingress",
                        "{'spec':{'rules':[{'host':'*.example.com','http':{'paths':[{'path':'/','pathType':'Prefix','backend':{'service':{'name':'web','port':{'number':80}}}}]}}]}}"),
                Arguments.of(
                        "networking.k8s.io",
                        "NetworkPolicy",
                        "{'spec':{'podSelector':{},'ingress':[{'from':[{'ipBlock':{'cidr':'10.0.0.0/8'}}],'ports':[{'port':443}]}]}}"),
                Arguments.of(
                        "policy",
                        "PodDisruptionBudget",
                        "{'spec':{'minAvailable':'50%','selector':{'matchLabels':{'app':'web'}}}}"),
                Arguments.of(
                        "rbac.authorization.k8s.io",
                        "Role",
                        "{'rules':[{'apiGroups':[''],'resources':['pods'],'verbs':['get','list']}]}"),
                Arguments.of(
                        "rbac.authorization.k8s.io",
                        "ClusterRole",
                        "{'rules':[{'nonResourceURLs':['/healthz'],'verbs':['get']}]}"),
                Arguments.of(
                        "rbac.authorization.k8s.io",
                        "RoleBinding",
                        "{'roleRef':{'kind':'ClusterRole','name':'edit'},'subjects':[{'kind':'User','name':'alice'},{'kind':'ServiceAccount','name':'default','namespace':'ns'}]}"),
                Arguments.of(
                        "rbac.authorization.k8s.io",
                        "ClusterRoleBinding",
                        "{'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'ClusterRole','name':'view'},'subjects':[{'kind':'Group','name':'devs'}]}"),
                Arguments.of(
                        "scheduling.k8s.io",
                        "PriorityClass",
                        "{'metadata':{'name':'high'},'value':1000000}"),
                Arguments.of(
                        "storage.k8s.io",
                        "StorageClass",
                        "{'provisioner':'rancher.io/local-path','parameters':{'type':'ssd'}}"));
    }

    @ParameterizedTest(name = "{0}/{1} {2}")
    @MethodSource("validObjects")
    void acceptsValidObjects(String group, String kind, String json) {
        assertEquals(List.of(), create(group, kind, json));
    }

    // --- invalid objects, with Kubernetes' messages
    // ------------------------------------------------

    static Stream<Arguments> invalidObjects() {
        String deploymentWith = "{'spec':{'selector':%s,'template':" + TEMPLATE + "}}";
        return Stream.of(
                Arguments.of(
                        "pod without containers",
                        "",
                        "Pod",
                        "{'spec':{}}",
                        List.of("spec.containers: Required value")),
                Arguments.of(
                        "duplicate container names",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'app','image':'a'},{'name':'app','image':'b'}]}}",
                        List.of("spec.containers[1].name: Duplicate value: \"app\"")),
                Arguments.of(
                        "container without image",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'app'}]}}",
                        List.of("spec.containers[0].image: Required value")),
                Arguments.of(
                        "container name with upper case",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'App','image':'a'}]}}",
                        List.of(
                                "spec.containers[0].name: Invalid value: \"App\": a lowercase RFC 1123 label must "
                                        + "consist of lower case alphanumeric characters or '-', and must start and end with an "
                                        + "alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
                                        + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')")),
                Arguments.of(
                        "container port out of range",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'app','image':'a','ports':[{'containerPort':70000}]}]}}",
                        List.of(
                                "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive")),
                Arguments.of(
                        "container port protocol",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'app','image':'a','ports':[{'containerPort':80,'protocol':'HTTP'}]}]}}",
                        List.of(
                                "spec.containers[0].ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"")),
                Arguments.of(
                        "unknown restartPolicy",
                        "",
                        "Pod",
                        "{'spec':{'restartPolicy':'Sometimes','containers':[{'name':'a','image':'a'}]}}",
                        List.of(
                                "spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\"")),
                Arguments.of(
                        "unknown dnsPolicy",
                        "",
                        "Pod",
                        "{'spec':{'dnsPolicy':'Custom','containers':[{'name':'a','image':'a'}]}}",
                        List.of(
                                "spec.dnsPolicy: Unsupported value: \"Custom\": supported values: \"ClusterFirstWithHostNet\", \"ClusterFirst\", \"Default\", \"None\"")),
                Arguments.of(
                        "duplicate volume names",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'a','image':'a'}],'volumes':[{'name':'data','emptyDir':{}},{'name':'data','emptyDir':{}}]}}",
                        List.of("spec.volumes[1].name: Duplicate value: \"data\"")),
                Arguments.of(
                        "volume without source",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'a','image':'a'}],'volumes':[{'name':'data'}]}}",
                        List.of("spec.volumes[0]: Required value: must specify a volume type")),
                Arguments.of(
                        "mount of an unknown volume",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'a','image':'a','volumeMounts':[{'name':'nope','mountPath':'/x'}]}]}}",
                        List.of("spec.containers[0].volumeMounts[0].name: Not found: \"nope\"")),
                Arguments.of(
                        "request above limit",
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'a','image':'a','resources':{'requests':{'cpu':'2'},'limits':{'cpu':'1'}}}]}}",
                        List.of(
                                "spec.containers[0].resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1")),
                Arguments.of(
                        "configmap key with space",
                        "",
                        "ConfigMap",
                        "{'data':{'bad key':'x'}}",
                        List.of(
                                "data[bad key]: Invalid value: \"bad key\": a valid config key must consist of alphanumeric "
                                        + "characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex "
                                        + "used for validation is '[-._a-zA-Z0-9]+')")),
                Arguments.of(
                        "configmap over 1 MiB",
                        "",
                        "ConfigMap",
                        "{'data':{'a':'" + "x".repeat(1024 * 1024 + 1) + "'}}",
                        List.of("[]: Too long: may not be more than 1048576 bytes")),
                Arguments.of(
                        "configmap key in data and binaryData",
                        "",
                        "ConfigMap",
                        "{'data':{'k':'v'},'binaryData':{'k':'AA=='}}",
                        List.of(
                                "data[k]: Invalid value: \"k\": duplicate of key present in binaryData")),
                Arguments.of(
                        "service-account token without account",
                        "",
                        "Secret",
                        "{'type':'kubernetes.io/service-account-token'}",
                        List.of(
                                "metadata.annotations[kubernetes.io/service-account.name]: Required value")),
                Arguments.of(
                        "dockerconfigjson without its key",
                        "",
                        "Secret",
                        "{'type':'kubernetes.io/dockerconfigjson','data':{}}",
                        List.of("data[.dockerconfigjson]: Required value")),
                Arguments.of(
                        "dockerconfigjson that is not JSON",
                        "",
                        "Secret",
                        "{'type':'kubernetes.io/dockerconfigjson','data':{'.dockerconfigjson':'bm90IGpzb24='}}",
                        List.of(
                                "data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": invalid character in JSON content")),
                Arguments.of(
                        "service without ports",
                        "",
                        "Service",
                        "{'spec':{'selector':{'app':'web'}}}",
                        List.of("spec.ports: Required value")),
                Arguments.of(
                        "service type unknown",
                        "",
                        "Service",
                        "{'spec':{'type':'Internal','ports':[{'port':80}]}}",
                        List.of(
                                "spec.type: Unsupported value: \"Internal\": supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"")),
                Arguments.of(
                        "service port zero",
                        "",
                        "Service",
                        "{'spec':{'ports':[{'port':0,'targetPort':80}]}}",
                        List.of(
                                "spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive")),
                Arguments.of(
                        "unnamed ports of a multi-port service",
                        "",
                        "Service",
                        "{'spec':{'ports':[{'port':80},{'name':'https','port':443}]}}",
                        List.of("spec.ports[0].name: Required value")),
                Arguments.of(
                        "service port protocol",
                        "",
                        "Service",
                        "{'spec':{'ports':[{'port':80,'protocol':'tcp'}]}}",
                        List.of(
                                "spec.ports[0].protocol: Unsupported value: \"tcp\": supported values: \"SCTP\", \"TCP\", \"UDP\"")),
                Arguments.of(
                        "nodePort on a ClusterIP service",
                        "",
                        "Service",
                        "{'spec':{'ports':[{'port':80,'nodePort':30080}]}}",
                        List.of(
                                "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'")),
                Arguments.of(
                        "namespace finalizer unqualified",
                        "",
                        "Namespace",
                        "{'spec':{'finalizers':['custom']}}",
                        List.of(
                                "spec.finalizers: Invalid value: \"custom\": name is neither a standard finalizer name nor is it fully qualified")),
                Arguments.of(
                        "deployment selector not matching template",
                        "apps",
                        "Deployment",
                        String.format(deploymentWith, "{'matchLabels':{'app':'api'}}"),
                        List.of(
                                "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`")),
                Arguments.of(
                        "deployment without selector",
                        "apps",
                        "Deployment",
                        "{'spec':{'template':" + TEMPLATE + "}}",
                        List.of("spec.selector: Required value")),
                Arguments.of(
                        "deployment with empty selector",
                        "apps",
                        "Deployment",
                        String.format(deploymentWith, "{}"),
                        List.of(
                                "spec.selector: Invalid value: {}: empty selector is invalid for deployment")),
                Arguments.of(
                        "deployment with negative replicas",
                        "apps",
                        "Deployment",
                        "{'spec':{'replicas':-1,'selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}",
                        List.of(
                                "spec.replicas: Invalid value: -1: must be greater than or equal to 0")),
                Arguments.of(
                        "deployment template with restartPolicy Never",
                        "apps",
                        "Deployment",
                        "{'spec':{'selector':{'matchLabels':{'app':'web'}},'template':{'metadata':{'labels':{'app':'web'}},"
                                + "'spec':{'restartPolicy':'Never','containers':[{'name':'a','image':'a'}]}}}}",
                        List.of(
                                "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"")),
                Arguments.of(
                        "statefulset with empty selector",
                        "apps",
                        "StatefulSet",
                        String.format(deploymentWith, "{}"),
                        List.of(
                                "spec.selector: Invalid value: {}: empty selector is invalid for statefulset")),
                Arguments.of(
                        "job with default restartPolicy",
                        "batch",
                        "Job",
                        "{'metadata':{'name':'j','uid':'u'},'spec':{'template':{'spec':"
                                + POD_SPEC
                                + "}}}",
                        List.of(
                                "spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: \"OnFailure\", \"Never\"")),
                Arguments.of(
                        "cronjob without schedule",
                        "batch",
                        "CronJob",
                        "{'spec':{'jobTemplate':{'spec':{'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'i'}]}}}}}}",
                        List.of("spec.schedule: Required value")),
                Arguments.of(
                        "cronjob with four-field schedule",
                        "batch",
                        "CronJob",
                        "{'spec':{'schedule':'* * * *','jobTemplate':{'spec':{'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'i'}]}}}}}}",
                        List.of(
                                "spec.schedule: Invalid value: \"* * * *\": expected exactly 5 fields, found 4: [* * * *]")),
                Arguments.of(
                        "lease with zero duration",
                        "coordination.k8s.io",
                        "Lease",
                        "{'spec':{'leaseDurationSeconds':0}}",
                        List.of(
                                "spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0")),
                Arguments.of(
                        "role rule without verbs",
                        "rbac.authorization.k8s.io",
                        "Role",
                        "{'rules':[{'apiGroups':[''],'resources':['pods']}]}",
                        List.of(
                                "rules[0].verbs: Required value: verbs must contain at least one value")),
                Arguments.of(
                        "namespaced role with URLs",
                        "rbac.authorization.k8s.io",
                        "Role",
                        "{'rules':[{'nonResourceURLs':['/metrics'],'verbs':['get']}]}",
                        List.of(
                                "rules[0].nonResourceURLs: Invalid value: [\"/metrics\"]: namespaced rules cannot apply to non-resource URLs")),
                Arguments.of(
                        "cluster role binding to a Role",
                        "rbac.authorization.k8s.io",
                        "ClusterRoleBinding",
                        "{'roleRef':{'kind':'Role','name':'r'}}",
                        List.of(
                                "roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\"")),
                Arguments.of(
                        "cluster role binding subject without namespace",
                        "rbac.authorization.k8s.io",
                        "ClusterRoleBinding",
                        "{'roleRef':{'kind':'ClusterRole','name':'view'},'subjects':[{'kind':'ServiceAccount','name':'sa'}]}",
                        List.of("subjects[0].namespace: Required value")),
                Arguments.of(
                        "ingress path without pathType",
                        "networking.k8s.io",
                        "Ingress",
                        "{'spec':{'rules':[{'http':{'paths':[{'path':'/','backend':{'service':{'name':'web','port':{'number':80}}}}]}}]}}",
                        List.of(
                                "spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified")),
                Arguments.of(
                        "ingress without rules or backend",
                        "networking.k8s.io",
                        "Ingress",
                        "{'spec':{}}",
                        List.of(
                                "spec: Invalid value: null: either `defaultBackend` or `rules` must be specified")),
                Arguments.of(
                        "network policy type unknown",
                        "networking.k8s.io",
                        "NetworkPolicy",
                        "{'spec':{'podSelector':{},'policyTypes':['Inbound']}}",
                        List.of(
                                "spec.policyTypes[0]: Unsupported value: \"Inbound\": supported values: \"Ingress\", \"Egress\"")),
                Arguments.of(
                        "pdb with both bounds",
                        "policy",
                        "PodDisruptionBudget",
                        "{'spec':{'minAvailable':1,'maxUnavailable':1}}",
                        List.of(
                                "spec: Invalid value: {\"minAvailable\":1,\"maxUnavailable\":1}: minAvailable and maxUnavailable cannot be both set")),
                Arguments.of(
                        "pdb over 100 percent",
                        "policy",
                        "PodDisruptionBudget",
                        "{'spec':{'maxUnavailable':'150%'}}",
                        List.of(
                                "spec.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%")),
                Arguments.of(
                        "priority class above the user maximum",
                        "scheduling.k8s.io",
                        "PriorityClass",
                        "{'metadata':{'name':'top'},'value':2000000000}",
                        List.of(
                                "value: Forbidden: maximum allowed value of a user defined priority is 1000000000")),
                Arguments.of(
                        "storage class without provisioner",
                        "storage.k8s.io",
                        "StorageClass",
                        "{}",
                        List.of("provisioner: Required value")),
                Arguments.of(
                        "pv without capacity",
                        "",
                        "PersistentVolume",
                        "{'spec':{'accessModes':['ReadWriteOnce'],'hostPath':{'path':'/d'}}}",
                        List.of("spec.capacity: Required value")),
                Arguments.of(
                        "pvc without storage request",
                        "",
                        "PersistentVolumeClaim",
                        "{'spec':{'accessModes':['ReadWriteOnce']}}",
                        List.of("spec.resources[storage]: Required value")),
                Arguments.of(
                        "limit range type unknown",
                        "",
                        "LimitRange",
                        "{'spec':{'limits':[{'type':'Node'}]}}",
                        List.of(
                                "spec.limits[0].type: Invalid value: \"Node\": must be a standard limit type or fully qualified")),
                Arguments.of(
                        "quota on an unknown resource",
                        "",
                        "ResourceQuota",
                        "{'spec':{'hard':{'gpus':'1'}}}",
                        List.of(
                                "spec.hard[gpus]: Invalid value: \"gpus\": must be a standard resource for quota")),
                Arguments.of(
                        "quota scope that does not apply to its resources",
                        "",
                        "ResourceQuota",
                        "{'spec':{'hard':{'pods':'2','services':'1'},'scopes':['BestEffort']}}",
                        List.of(
                                "spec.scopes: Invalid value: [\"BestEffort\"]: unsupported scope applied to resource")),
                Arguments.of(
                        "quota scope selector with an unknown scope and operator",
                        "",
                        "ResourceQuota",
                        "{'spec':{'hard':{'pods':'1'},'scopeSelector':{'matchExpressions':[{'scopeName':'Nope','operator':'Bad'}]}}}",
                        List.of(
                                "spec.scopeSelector.matchExpressions.scopeName: Invalid value: \"Nope\": unsupported scope",
                                "spec.scopeSelector.matchExpressions.operator: Invalid value: \"Bad\": not a valid selector operator")),
                Arguments.of(
                        "quota scope selector: Exists only for the pod scopes, values only for In",
                        "",
                        "ResourceQuota",
                        "{'spec':{'hard':{'pods':'1'},'scopeSelector':{'matchExpressions':[{'scopeName':'BestEffort','operator':'In','values':['x']},{'scopeName':'PriorityClass','operator':'In'}]}}}",
                        List.of(
                                "spec.scopeSelector.matchExpressions.operator: Invalid value: \"In\": must be 'Exist' only operator when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort and ResourceQuotaScopeNotBestEffort",
                                "spec.scopeSelector.matchExpressions.values: Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector")),
                Arguments.of(
                        "event in another namespace",
                        "",
                        "Event",
                        "{'metadata':{'namespace':'default'},'involvedObject':{'kind':'Pod','namespace':'other','name':'p'}}",
                        List.of(
                                "involvedObject.namespace: Invalid value: \"other\": does not match event.namespace")),
                Arguments.of(
                        "endpoints subset without addresses",
                        "",
                        "Endpoints",
                        "{'subsets':[{'ports':[{'port':80}]}]}",
                        List.of(
                                "subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`")),
                Arguments.of(
                        "node taint effect unknown",
                        "",
                        "Node",
                        "{'spec':{'taints':[{'key':'k','effect':'Evict'}]}}",
                        List.of(
                                "spec.taints[0].effect: Unsupported value: \"Evict\": supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidObjects")
    void rejectsInvalidObjectsWithKubernetesMessages(
            String name, String group, String kind, String json, List<String> expected) {
        assertEquals(expected, create(group, kind, json));
    }

    // --- updates ---------------------------------------------------------------------------------

    static Stream<Arguments> invalidUpdates() {
        String deployment =
                "{'spec':{'selector':{'matchLabels':{'app':'%s'}},'template':{'metadata':{'labels':{'app':'%s'}},'spec':"
                        + POD_SPEC
                        + "}}}";
        return Stream.of(
                Arguments.of(
                        "deployment selector changed",
                        "apps",
                        "Deployment",
                        String.format(deployment, "web", "web"),
                        String.format(deployment, "other", "other"),
                        List.of(
                                "spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"other\"}}: field is immutable")),
                Arguments.of(
                        "pod spec field other than image changed",
                        "",
                        "Pod",
                        "{'spec':" + POD_SPEC + "}",
                        "{'spec':{'nodeName':'n1','containers':[{'name':'app','image':'nginx:1.27'}]}}",
                        List.of(
                                "spec: Forbidden: pod updates may not change fields other than "
                                        + PodStrategy.UPDATABLE_FIELDS)),
                Arguments.of(
                        "pod container added",
                        "",
                        "Pod",
                        "{'spec':" + POD_SPEC + "}",
                        "{'spec':{'containers':[{'name':'app','image':'a'},{'name':'b','image':'b'}]}}",
                        List.of(
                                "spec.containers: Forbidden: pod updates may not add or remove containers")),
                Arguments.of(
                        "immutable configmap data changed",
                        "",
                        "ConfigMap",
                        "{'immutable':true,'data':{'a':'1'}}",
                        "{'immutable':true,'data':{'a':'2'}}",
                        List.of("data: Forbidden: field is immutable when `immutable` is set")),
                Arguments.of(
                        "immutable configmap made mutable",
                        "",
                        "ConfigMap",
                        "{'immutable':true,'data':{'a':'1'}}",
                        "{'immutable':false,'data':{'a':'1'}}",
                        List.of(
                                "immutable: Forbidden: field is immutable when `immutable` is set")),
                Arguments.of(
                        "secret type changed",
                        "",
                        "Secret",
                        "{'type':'Opaque','data':{'tls.crt':'YQ==','tls.key':'Yg=='}}",
                        "{'type':'kubernetes.io/tls','data':{'tls.crt':'YQ==','tls.key':'Yg=='}}",
                        List.of("type: Invalid value: \"kubernetes.io/tls\": field is immutable")),
                Arguments.of(
                        "role binding roleRef changed",
                        "rbac.authorization.k8s.io",
                        "RoleBinding",
                        "{'roleRef':{'kind':'ClusterRole','name':'view'}}",
                        "{'roleRef':{'kind':'ClusterRole','name':'edit'}}",
                        List.of(
                                "roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"ClusterRole\",\"Name\":\"edit\"}: cannot change roleRef")),
                Arguments.of(
                        "storage class parameters changed",
                        "storage.k8s.io",
                        "StorageClass",
                        "{'provisioner':'p.io/x','parameters':{'a':'1'}}",
                        "{'provisioner':'p.io/x','parameters':{'a':'2'}}",
                        List.of("parameters: Forbidden: updates to parameters are forbidden.")),
                Arguments.of(
                        "priority class value changed",
                        "scheduling.k8s.io",
                        "PriorityClass",
                        "{'metadata':{'name':'p'},'value':1}",
                        "{'metadata':{'name':'p'},'value':2}",
                        List.of("value: Forbidden: may not be changed in an update.")),
                Arguments.of(
                        "statefulset serviceName changed",
                        "apps",
                        "StatefulSet",
                        "{'spec':{'serviceName':'a','selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}",
                        "{'spec':{'serviceName':'b','selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}",
                        List.of(
                                "spec: Forbidden: "
                                        + WorkloadStrategy.STATEFULSET_UPDATE_FORBIDDEN)),
                Arguments.of(
                        "pvc access modes changed",
                        "",
                        "PersistentVolumeClaim",
                        "{'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'1Gi'}}}}",
                        "{'spec':{'accessModes':['ReadWriteMany'],'resources':{'requests':{'storage':'1Gi'}}}}",
                        List.of(
                                "spec: Forbidden: "
                                        + PersistentVolumeClaimStrategy.IMMUTABLE_SPEC)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidUpdates")
    void rejectsForbiddenUpdates(
            String name, String group, String kind, String old, String now, List<String> expected) {
        assertEquals(expected, update(group, kind, old, now));
    }

    @Test
    void allowsChangingPodImages() {
        assertEquals(
                List.of(),
                update(
                        "",
                        "Pod",
                        "{'spec':" + POD_SPEC + "}",
                        "{'spec':{'containers':[{'name':'app','image':'nginx:1.28'}]}}"));
    }

    @Test
    void allowsGrowingPvcStorageRequest() {
        assertEquals(
                List.of(),
                update(
                        "",
                        "PersistentVolumeClaim",
                        "{'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'1Gi'}}}}",
                        "{'spec':{'accessModes':['ReadWriteOnce'],'resources':{'requests':{'storage':'2Gi'}},'volumeName':'pv-1'}}"));
    }

    // --- defaults and initial status -------------------------------------------------------------

    @Test
    void defaultsPodSpecAndContainersLikeKubernetes() {
        ObjectNode pod =
                defaulted(
                        "",
                        "Pod",
                        "{'spec':{'containers':[{'name':'a','image':'nginx','ports':[{'containerPort':80}]},"
                                + "{'name':'b','image':'registry:5000/app:v2'},{'name':'c','image':'app@sha256:abc'}]}}");
        JsonNode spec = pod.get("spec");
        assertEquals(
                obj(
                        "{'restartPolicy':'Always','dnsPolicy':'ClusterFirst','schedulerName':'default-scheduler',"
                                + "'terminationGracePeriodSeconds':30,'enableServiceLinks':true,'securityContext':{}}"),
                withoutContainers(spec));
        JsonNode a = spec.get("containers").get(0);
        assertEquals("/dev/termination-log", a.get("terminationMessagePath").asText());
        assertEquals("File", a.get("terminationMessagePolicy").asText());
        assertEquals("Always", a.get("imagePullPolicy").asText());
        assertEquals("TCP", a.at("/ports/0/protocol").asText());
        assertEquals("IfNotPresent", spec.at("/containers/1/imagePullPolicy").asText());
        assertEquals("IfNotPresent", spec.at("/containers/2/imagePullPolicy").asText());
    }

    @Test
    void keepsExplicitPodSettings() {
        ObjectNode pod =
                defaulted(
                        "",
                        "Pod",
                        "{'spec':{'restartPolicy':'Never','terminationGracePeriodSeconds':5,"
                                + "'containers':[{'name':'a','image':'nginx','imagePullPolicy':'Never'}]}}");
        assertEquals("Never", pod.at("/spec/restartPolicy").asText());
        assertEquals(5, pod.at("/spec/terminationGracePeriodSeconds").asInt());
        assertEquals("Never", pod.at("/spec/containers/0/imagePullPolicy").asText());
    }

    static Stream<Arguments> qosCases() {
        return Stream.of(
                Arguments.of("no resources", "{}", "BestEffort"),
                Arguments.of("requests only", "{'requests':{'cpu':'100m'}}", "Burstable"),
                Arguments.of(
                        "limits equal requests",
                        "{'limits':{'cpu':'1','memory':'1Gi'}}",
                        "Guaranteed"),
                Arguments.of(
                        "equal in different units",
                        "{'requests':{'cpu':'1000m','memory':'1024Mi'},'limits':{'cpu':'1','memory':'1Gi'}}",
                        "Guaranteed"),
                Arguments.of("memory limit missing", "{'limits':{'cpu':'1'}}", "Burstable"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("qosCases")
    void podStartsPendingWithItsQosClass(String name, String resources, String qos) {
        Strategy s = BuiltinDefinitions.strategy("", "Pod");
        ObjectNode pod =
                obj(
                        "{'spec':{'containers':[{'name':'a','image':'i','resources':"
                                + resources
                                + "}]}}");
        s.applyDefaults(pod);
        assertEquals(obj("{'phase':'Pending','qosClass':'" + qos + "'}"), s.initialStatus(pod));
    }

    @Test
    void namespaceGetsKubernetesFinalizerOnCreateAndStartsActive() {
        Strategy s = BuiltinDefinitions.strategy("", "Namespace");
        ObjectNode ns = obj("{'metadata':{'name':'team'}}");
        s.applyDefaults(ns);
        s.prepareForCreate(ns);
        assertEquals(obj("{'finalizers':['kubernetes']}"), ns.get("spec"));
        assertEquals(obj("{'phase':'Active'}"), s.initialStatus(ns));
    }

    @Test
    void namespaceDefaultsDoNotGiveBackTheFinalizerFinalizeRemoved() {
        ObjectNode ns =
                defaulted(
                        "",
                        "Namespace",
                        "{'metadata':{'name':'team','deletionTimestamp':'2024-01-01T00:00:00Z'},"
                                + "'spec':{},'status':{'phase':'Terminating'}}");
        assertEquals(obj("{}"), ns.get("spec"));
    }

    @Test
    void namespaceUpdateKeepsTheStoredSpecFinalizers() {
        Strategy s = BuiltinDefinitions.strategy("", "Namespace");
        ObjectNode old = obj("{'metadata':{'name':'team'},'spec':{'finalizers':['kubernetes']}}");
        ObjectNode cleared = obj("{'metadata':{'name':'team'},'spec':{'finalizers':[]}}");
        s.prepareForUpdate(cleared, old);
        assertEquals(obj("{'finalizers':['kubernetes']}"), cleared.get("spec"));
        ObjectNode added =
                obj("{'metadata':{'name':'team'},'spec':{'finalizers':['example.com/x']}}");
        s.prepareForUpdate(added, obj("{'metadata':{'name':'team'}}"));
        assertEquals(null, added.get("spec"));
    }

    @Test
    void secretStringDataIsFoldedIntoData() {
        ObjectNode secret =
                defaulted("", "Secret", "{'data':{'a':'YQ=='},'stringData':{'b':'hello'}}");
        assertEquals(obj("{'data':{'a':'YQ==','b':'aGVsbG8='},'type':'Opaque'}"), secret);
    }

    @Test
    void serviceDefaultsTypeProtocolAndTargetPort() {
        ObjectNode svc = defaulted("", "Service", "{'spec':{'ports':[{'port':80}]}}");
        assertEquals(
                obj(
                        "{'ports':[{'port':80,'protocol':'TCP','targetPort':80}],'sessionAffinity':'None',"
                                + "'type':'ClusterIP','internalTrafficPolicy':'Cluster'}"),
                svc.get("spec"));
        assertEquals(
                obj("{'loadBalancer':{}}"),
                BuiltinDefinitions.strategy("", "Service").initialStatus(svc));
    }

    @Test
    void ingressStartsWithTheSameEmptyLoadBalancerStatusAsAService() {
        assertEquals(
                obj("{'loadBalancer':{}}"),
                BuiltinDefinitions.strategy("networking.k8s.io", "Ingress")
                        .initialStatus(obj("{'spec':{}}")));
    }

    @Test
    void deploymentDefaultsMatchWhatKubectlDiffShows() {
        ObjectNode d =
                defaulted(
                        "apps",
                        "Deployment",
                        "{'spec':{'selector':{'matchLabels':{'app':'web'}},'template':"
                                + TEMPLATE
                                + "}}");
        assertEquals(1, d.at("/spec/replicas").asInt());
        assertEquals(
                obj(
                        "{'type':'RollingUpdate','rollingUpdate':{'maxUnavailable':'25%','maxSurge':'25%'}}"),
                d.at("/spec/strategy"));
        assertEquals(10, d.at("/spec/revisionHistoryLimit").asInt());
        assertEquals(600, d.at("/spec/progressDeadlineSeconds").asInt());
        assertEquals(
                "/dev/termination-log",
                d.at("/spec/template/spec/containers/0/terminationMessagePath").asText());
        assertEquals(
                "IfNotPresent", d.at("/spec/template/spec/containers/0/imagePullPolicy").asText());
    }

    @Test
    void jobSelectorIsGeneratedFromUid() {
        ObjectNode job =
                defaulted(
                        "batch",
                        "Job",
                        "{'metadata':{'name':'pi','uid':'u-1'},"
                                + "'spec':{'template':{'spec':{'restartPolicy':'Never','containers':[{'name':'pi','image':'perl'}]}}}}");
        assertEquals(
                obj("{'matchLabels':{'batch.kubernetes.io/controller-uid':'u-1'}}"),
                job.at("/spec/selector"));
        assertEquals(
                obj(
                        "{'controller-uid':'u-1','batch.kubernetes.io/controller-uid':'u-1','job-name':'pi',"
                                + "'batch.kubernetes.io/job-name':'pi'}"),
                job.at("/spec/template/metadata/labels"));
        assertEquals(1, job.at("/spec/completions").asInt());
        assertEquals(6, job.at("/spec/backoffLimit").asInt());
    }

    @Test
    void workloadsStartWithTheirEmptyStatus() {
        assertEquals(
                obj("{}"),
                BuiltinDefinitions.strategy("apps", "Deployment").initialStatus(obj("{}")));
        assertEquals(
                obj("{'replicas':0}"),
                BuiltinDefinitions.strategy("apps", "ReplicaSet").initialStatus(obj("{}")));
        assertEquals(
                obj("{'phase':'Pending'}"),
                BuiltinDefinitions.strategy("", "PersistentVolumeClaim").initialStatus(obj("{}")));
    }

    @Test
    void nodeKeepsTheStatusItRegistersWith() {
        ObjectNode node = obj("{'status':{'capacity':{'cpu':'4'}}}");
        assertEquals(
                obj("{'capacity':{'cpu':'4'}}"),
                BuiltinDefinitions.strategy("", "Node").initialStatus(node));
    }

    @Test
    void everyBuiltinKindWithOwnRulesHasAStrategy() {
        for (KindDefinition d : BuiltinKinds.all()) {
            Strategy s = d.strategy();
            if (d.type().kind().equals("ServiceAccount")) {
                assertSame(Strategy.GENERIC, s, "ServiceAccount has only metadata rules");
            } else if (d.type().review() != null) {
                // A review stores nothing: its rules are its Review's.
                assertSame(Strategy.GENERIC, s, d.type().kind() + " writes nothing");
            } else if (!d.isStorageVersion()) {
                // A version stored as another writes through the storage version's strategy.
                assertSame(Strategy.GENERIC, s, d.type().apiVersion() + " stores nothing itself");
            } else {
                assertNotSame(Strategy.GENERIC, s, d.type().kind() + " should have a strategy");
            }
        }
        assertSame(
                Strategy.GENERIC,
                ResourceType.builder("example.com", "v1", "Widget", "widgets").build().strategy(),
                "a kind defined without a strategy behaves generically");
    }

    private static JsonNode withoutContainers(JsonNode spec) {
        ObjectNode copy = ((ObjectNode) spec).deepCopy();
        copy.remove("containers");
        return copy;
    }
}
