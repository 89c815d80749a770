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

    @Test
    void theMutatingPluginsRunInOrderEachOnWhatTheOnesBeforeLeftAndTheFirstRefusalAnswers() {
        List<String> seen = new ArrayList<>();
        MutatingAdmission label =
                r -> {
                    ObjectNode changed = r.object().deepCopy();
                    changed.withObjectProperty("metadata").put("name", "renamed");
                    return new Mutation.Admitted(changed);
                };
        MutatingAdmission look =
                r -> {
                    seen.add(r.object().path("metadata").path("name").asText());
                    return new Mutation.Admitted(r.object());
                };
        MutatingAdmission refuse = r -> new Mutation.Refused(r.forbidden("no"));
        AdmissionRequest request = create("cm", null);
        Mutation m = WriteAdmission.chain(List.of(look, label, look), List.of()).mutation(request);
        assertEquals(List.of("", "renamed"), seen);
        assertEquals(
                "renamed", ((Mutation.Admitted) m).object().path("metadata").path("name").asText());
        assertEquals(JsonNodeFactory.instance.objectNode(), request.object(), "not modified");
        seen.clear();
        Mutation refused = WriteAdmission.chain(List.of(refuse, look), List.of()).mutation(request);
        assertEquals(
                "configmaps \"cm\" is forbidden: no",
                ((Mutation.Refused) refused).status().message());
        assertEquals(List.of(), seen);
    }

    @Test
    void aDeferredAdmissionRefusesToMutateUntilInstalled() {
        DeferredAdmission deferred = new DeferredAdmission();
        Mutation m = deferred.mutation(create("cm", null));
        assertEquals(
                "configmaps \"cm\" is forbidden: not yet ready to handle request",
                ((Mutation.Refused) m).status().message());
        deferred.install(WriteAdmission.NONE);
        AdmissionRequest r = create("cm", null);
        assertEquals(r.object(), ((Mutation.Admitted) deferred.mutation(r)).object());
    }
}
