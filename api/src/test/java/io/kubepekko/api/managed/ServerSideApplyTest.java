package io.kubepekko.api.managed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.merge.MergeMetadata;
import io.kubepekko.api.meta.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerSideApply} on objects without a schema (custom resources without merge metadata):
 * keys act as struct fields and lists are atomic. Typed objects are covered by the scenario
 * scripts.
 */
class ServerSideApplyTest {

    private final ServerSideApply apply = new ServerSideApply(MergeMetadata.builtin());

    private static ObjectNode obj(String json) {
        return Json.parseTrusted(json.replace('\'', '"').getBytes());
    }

    private ServerSideApply.Outcome outcome(
            ObjectNode live,
            List<ManagedFields.Entry> entries,
            String config,
            String manager,
            boolean force) {
        return apply.apply(
                live,
                entries,
                obj(config),
                null,
                new ServerSideApply.Request(
                        manager, null, "example.com/v1", "2026-01-02T03:04:05Z", force));
    }

    private ServerSideApply.Result run(
            ObjectNode live,
            List<ManagedFields.Entry> entries,
            String config,
            String manager,
            boolean force) {
        return assertInstanceOf(
                ServerSideApply.Result.class, outcome(live, entries, config, manager, force));
    }

    @Test
    void untypedObjectsMergeKeyByKeyAndReplaceListsWhole() {
        ServerSideApply.Result first =
                run(
                        obj("{}"),
                        List.of(),
                        "{'spec':{'size':1,'tags':['a','b'],'nested':{'x':1}}}",
                        "a",
                        false);
        assertEquals(
                obj("{'f:spec':{'f:nested':{'f:x':{}},'f:size':{},'f:tags':{}}}"),
                first.entries().get(0).fields().toFieldsV1());
        ServerSideApply.Result second =
                run(
                        first.object(),
                        first.entries(),
                        "{'spec':{'tags':['c'],'nested':{'y':2}}}",
                        "b",
                        true);
        assertEquals(
                obj("{'spec':{'size':1,'tags':['c'],'nested':{'x':1,'y':2}}}"), second.object());
        assertEquals(2, second.entries().size());
        assertEquals(
                obj("{'f:spec':{'f:nested':{'f:x':{}},'f:size':{}}}"),
                fieldsOf(second, "a"),
                "forced: the atomic list moved to b");
        assertEquals(obj("{'f:spec':{'f:nested':{'f:y':{}},'f:tags':{}}}"), fieldsOf(second, "b"));
    }

    private static ObjectNode fieldsOf(ServerSideApply.Result r, String manager) {
        return r.entries().stream()
                .filter(e -> e.manager().equals(manager))
                .findFirst()
                .orElseThrow()
                .fields()
                .toFieldsV1();
    }

    @Test
    void aListChangeConflictsOnTheWholeList() {
        ServerSideApply.Result first =
                run(obj("{}"), List.of(), "{'spec':{'tags':['a']}}", "a", false);
        ServerSideApply.Conflicts refused =
                assertInstanceOf(
                        ServerSideApply.Conflicts.class,
                        outcome(
                                first.object(),
                                first.entries(),
                                "{'spec':{'tags':['a','b']}}",
                                "b",
                                false));
        assertEquals(
                List.of("a"), refused.conflicts().stream().map(c -> c.owner().manager()).toList());
        assertEquals(409, refused.status().code());
        assertEquals(
                "Apply failed with 1 conflict: conflict with \"a\": .spec.tags",
                refused.status().message());
    }
}
