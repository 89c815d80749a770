package io.kubepekko.agent.pod;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QosClassTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "no resources           | {'containers':[{'name':'a'}]}                                                                                 | BestEffort",
                "limits equal requests  | {'containers':[{'name':'a','resources':{'requests':{'cpu':'1','memory':'1Gi'},'limits':{'cpu':'1000m','memory':'1024Mi'}}}]} | Guaranteed",
                "request only           | {'containers':[{'name':'a','resources':{'requests':{'cpu':'100m'}}}]}                                          | Burstable",
                "one container has none | {'containers':[{'name':'a','resources':{'requests':{'cpu':'1','memory':'1Gi'},'limits':{'cpu':'1','memory':'1Gi'}}},{'name':'b'}]} | Burstable",
                "init container counts  | {'initContainers':[{'name':'i','resources':{'limits':{'memory':'64Mi'}}}],'containers':[{'name':'a'}]}          | Burstable",
                "only other resources   | {'containers':[{'name':'a','resources':{'requests':{'ephemeral-storage':'1Gi'}}}]}                             | BestEffort",
            })
    void computesAsKubernetes(String name, String spec, String expected) throws Exception {
        JsonNode pod = JSON.readTree("{\"spec\":" + spec.replace('\'', '"') + "}");
        assertEquals(expected, QosClass.of(pod).toString());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "Guaranteed,Guaranteed,''",
        "Burstable,Burstable,burstable",
        "BestEffort,BestEffort,besteffort"
    })
    void takesTheRecordedClassFirstAndNamesItsCgroup(
            String recorded, String expected, String cgroup) throws Exception {
        JsonNode pod =
                JSON.readTree(
                        "{\"spec\":{\"containers\":[{\"name\":\"a\"}]},\"status\":{\"qosClass\":\""
                                + recorded
                                + "\"}}");
        assertEquals(expected, QosClass.of(pod).toString());
        assertEquals(cgroup, QosClass.of(pod).cgroupLevel());
    }
}
