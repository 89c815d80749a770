package io.kubepekko.api.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.status.ApiStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WriteAdmissionTest {

    private static AdmissionRequest create(String name, String generateName) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        if (generateName != null) {
            obj.putObject("metadata").put("generateName", generateName);
        }
        return new AdmissionRequest(
                Operation.CREATE,
                UserInfo.of("eve", List.of()),
                new GroupResource("", "configmaps"),
                null,
                "ns",
                name,
                obj,
                null,
                false);
    }

    @Test
    void theChainAsksInOrderAndTheFirstRefusalAnswers() {
        List<String> asked = new ArrayList<>();
        WriteAdmission chain =
                WriteAdmission.chain(
                        List.of(
                                r -> {
                                    asked.add("first");
                                    return Optional.empty();
                                },
                                r -> {
                                    asked.add("second");
                                    return Optional.of(r.forbidden("no"));
                                },
                                r -> {
                                    asked.add("third");
                                    return Optional.empty();
                                }));
        assertEquals(
                "configmaps \"cm\" is forbidden: no",
                chain.refusal(create("cm", null)).orElseThrow().message());
        assertEquals(List.of("first", "second"), asked);
    }

    @Test
    void anErrorNamesTheRequestsNameElseTheGenerateNameElseUnknown() {
        // kube's extractResourceName: a generated name is not known when admission runs
        assertEquals("cm", create("cm", "gen-").subjectName());
        assertEquals("gen-", create("", "gen-").subjectName());
        assertEquals("Unknown", create(null, null).subjectName());
    }

    @Test
    void aDeferredAdmissionRefusesAsNotReadyUntilInstalledAndThenAsksWhatWasInstalled() {
        DeferredAdmission deferred = new DeferredAdmission();
        ApiStatus notReady = deferred.refusal(create("cm", null)).orElseThrow();
        assertEquals(403, notReady.code());
        assertEquals(
                "configmaps \"cm\" is forbidden: not yet ready to handle request",
                notReady.message());
        deferred.install(WriteAdmission.NONE);
        assertEquals(Optional.empty(), deferred.refusal(create("cm", null)));
        assertThrows(IllegalStateException.class, () -> deferred.install(WriteAdmission.NONE));
    }
}
