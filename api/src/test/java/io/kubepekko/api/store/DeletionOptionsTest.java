package io.kubepekko.api.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.gc.PropagationPolicy;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.status.ApiException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DeleteOptions from a body or the query, with kube-apiserver's checks and messages. */
class DeletionOptionsTest {

    private static DeletionOptions query(Map<String, List<String>> params) {
        return DeletionOptions.fromQuery(name -> params.getOrDefault(name, List.of()));
    }

    private static DeletionOptions body(String json) {
        return DeletionOptions.fromBody(Json.parseTrusted(json.replace('\'', '"').getBytes()));
    }

    @Test
    void readsEveryOptionFromTheBody() {
        DeletionOptions o =
                body(
                        "{'gracePeriodSeconds':5,'propagationPolicy':'Foreground','dryRun':['All'],"
                                + "'preconditions':{'uid':'u','resourceVersion':'7'}}");
        assertEquals(5L, o.gracePeriodSeconds());
        assertEquals(PropagationPolicy.FOREGROUND, o.propagationPolicy());
        assertTrue(o.dryRun());
        assertEquals(new Preconditions("u", "7"), o.preconditions());
        assertNull(o.orphanDependents());
    }

    @Test
    void readsTheQueryWhenThereIsNoBody() {
        DeletionOptions o =
                query(
                        Map.of(
                                "gracePeriodSeconds",
                                List.of("0"),
                                "orphanDependents",
                                List.of("true")));
        assertEquals(0L, o.gracePeriodSeconds());
        assertTrue(o.orphanDependents());
        assertFalse(o.dryRun());
        assertEquals(Preconditions.NONE, o.preconditions());
    }

    @Test
    void anUnknownPolicyIs422() {
        ApiException e =
                assertThrows(ApiException.class, () -> body("{'propagationPolicy':'Sometimes'}"));
        assertEquals(422, e.status().code());
        assertEquals(
                "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sometimes\": "
                        + "supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"",
                e.status().message());
    }

    @Test
    void orphanDependentsWithAPolicyIs422() {
        ApiException e =
                assertThrows(
                        ApiException.class,
                        () ->
                                query(
                                        Map.of(
                                                "orphanDependents",
                                                List.of("false"),
                                                "propagationPolicy",
                                                List.of("Orphan"))));
        assertEquals(422, e.status().code());
        assertEquals(
                "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Invalid value: \"Orphan\": "
                        + "orphanDependents and deletionPropagation cannot be both set",
                e.status().message());
    }

    @Test
    void unparsableQueryValuesAre400() {
        ApiException grace =
                assertThrows(
                        ApiException.class,
                        () -> query(Map.of("gracePeriodSeconds", List.of("soon"))));
        assertEquals(400, grace.status().code());
        assertEquals(
                "strconv.ParseInt: parsing \"soon\": invalid syntax", grace.status().message());
        ApiException orphan =
                assertThrows(
                        ApiException.class,
                        () -> query(Map.of("orphanDependents", List.of("maybe"))));
        assertEquals(400, orphan.status().code());
    }
}
