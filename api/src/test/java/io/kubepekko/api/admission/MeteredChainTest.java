package io.kubepekko.api.admission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.auth.UserInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The chain's metrics: each named plugin's time in its phase, each phase's, refusals marked. */
class MeteredChainTest {

    private final List<String> seen = new ArrayList<>();
    private final AdmissionObserver observer =
            new AdmissionObserver() {
                @Override
                public void plugin(
                        String name,
                        Phase phase,
                        Operation operation,
                        boolean rejected,
                        long nanos) {
                    seen.add(name + " " + phase.label() + " " + operation + " " + rejected);
                }

                @Override
                public void step(Phase phase, Operation operation, boolean rejected, long nanos) {
                    seen.add("step " + phase.label() + " " + operation + " " + rejected);
                }
            };

    private static AdmissionRequest update() {
        return new AdmissionRequest(
                Operation.UPDATE,
                UserInfo.of("eve", List.of()),
                new GroupResource("", "configmaps"),
                null,
                "ns",
                "cm",
                JsonNodeFactory.instance.objectNode(),
                JsonNodeFactory.instance.objectNode(),
                false);
    }

    private static final MutatingAdmission KEEPS = r -> new Mutation.Admitted(r.object());
    private static final WriteAdmission ADMITS = r -> Optional.empty();
    private static final WriteAdmission REFUSES = r -> Optional.of(r.forbidden("no"));

    @Test
    void eachNamedPluginAndEachPhaseIsReported() {
        WriteAdmission chain =
                WriteAdmission.chain(
                        List.of(new NamedPlugin<>("LimitRanger", KEEPS)),
                        List.of(
                                new NamedPlugin<>("LimitRanger", ADMITS),
                                new NamedPlugin<>(null, ADMITS),
                                new NamedPlugin<>("ResourceQuota", ADMITS)),
                        observer);
        chain.mutation(update());
        chain.refusal(update());
        assertEquals(
                List.of(
                        "LimitRanger admit UPDATE false",
                        "step admit UPDATE false",
                        "LimitRanger validate UPDATE false",
                        "ResourceQuota validate UPDATE false",
                        "step validate UPDATE false"),
                seen);
    }

    @Test
    void theRefusingPluginAndItsPhaseAreMarkedRejectedAndLaterPluginsAreNotAsked() {
        WriteAdmission chain =
                WriteAdmission.chain(
                        List.of(
                                new NamedPlugin<>(
                                        "Priority",
                                        r -> new Mutation.Refused(r.forbidden("no class"))),
                                new NamedPlugin<>("DefaultTolerationSeconds", KEEPS)),
                        List.of(
                                new NamedPlugin<>("NodeRestriction", REFUSES),
                                new NamedPlugin<>("ResourceQuota", ADMITS)),
                        observer);
        assertInstanceOf(Mutation.Refused.class, chain.mutation(update()));
        assertEquals(true, chain.refusal(update()).isPresent());
        assertEquals(
                List.of(
                        "Priority admit UPDATE true",
                        "step admit UPDATE true",
                        "NodeRestriction validate UPDATE true",
                        "step validate UPDATE true"),
                seen);
    }
}
