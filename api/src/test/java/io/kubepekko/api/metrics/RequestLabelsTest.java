package io.kubepekko.api.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.Verb;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The labels kube's MonitorRequest gives requests, case by case from its metrics.go. */
class RequestLabelsTest {

    private static RequestLabels labels(
            Verb verb, String method, String namespace, String name, String contentType) {
        return RequestLabels.of(
                verb,
                method,
                "apps",
                "v1",
                "deployments",
                null,
                namespace,
                name,
                contentType,
                List.of());
    }

    @Test
    void aGetOfOneObjectIsAGetOfResourceScope() {
        RequestLabels l = labels(Verb.GET, "GET", "ns", "web", null);
        assertEquals(new RequestLabels("GET", "", "apps", "v1", "deployments", "", "resource"), l);
        assertTrue(l.sized());
    }

    @Test
    void aGetOfACollectionIsAListOfItsNamespaceOrOfTheCluster() {
        assertEquals("LIST", labels(Verb.LIST, "GET", "ns", null, null).verb());
        assertEquals("namespace", labels(Verb.LIST, "GET", "ns", null, null).scope());
        assertEquals("cluster", labels(Verb.LIST, "GET", null, null, null).scope());
        assertTrue(labels(Verb.LIST, "GET", null, null, null).sized());
    }

    @Test
    void aWatchIsAWatchAndItsSizeIsNotObserved() {
        RequestLabels l = labels(Verb.WATCH, "GET", "ns", null, null);
        assertEquals("WATCH", l.verb());
        assertEquals("namespace", l.scope());
        assertFalse(l.sized());
        // A watch of one object (GET .../name?watch=1) is of resource scope, as in kube.
        assertEquals("resource", labels(Verb.WATCH, "GET", "ns", "web", null).scope());
    }

    @Test
    void writesAreReportedByTheirMethodAndACreateIsOfResourceScope() {
        RequestLabels create = labels(Verb.CREATE, "POST", "ns", null, "application/json");
        assertEquals("POST", create.verb());
        assertEquals("resource", create.scope());
        assertEquals("PUT", labels(Verb.UPDATE, "PUT", "ns", "web", null).verb());
        assertEquals(
                "PATCH",
                labels(Verb.PATCH, "PATCH", "ns", "web", "application/merge-patch+json").verb());
        assertEquals("DELETE", labels(Verb.DELETE, "DELETE", "ns", "web", null).verb());
        assertFalse(create.sized());
    }

    @Test
    void anApplyPatchIsAnApply() {
        assertEquals(
                "APPLY",
                labels(Verb.PATCH, "PATCH", "ns", "web", "application/apply-patch+yaml").verb());
    }

    @Test
    void aDeleteOfACollectionIsReportedAsDeleteOfItsScope() {
        RequestLabels l = labels(Verb.DELETECOLLECTION, "DELETE", "ns", null, null);
        assertEquals("DELETE", l.verb());
        assertEquals("namespace", l.scope());
    }

    @Test
    void streamingSubresourcesAreConnectsAndUnknownMethodsOther() {
        RequestLabels exec =
                RequestLabels.of(
                        Verb.CREATE, "POST", "", "v1", "pods", "exec", "ns", "p", null, List.of());
        assertEquals("CONNECT", exec.verb());
        assertEquals("exec", exec.subresource());
        assertEquals("other", labels(Verb.UNSUPPORTED, "OPTIONS", "ns", "web", null).verb());
    }

    @Test
    void theDryRunLabelIsTheDistinctValuesOrInvalid() {
        assertEquals("", RequestLabels.dryRun(List.of()));
        assertEquals("All", RequestLabels.dryRun(List.of("All", "All")));
        assertEquals("invalid", RequestLabels.dryRun(List.of("All", "Some")));
        assertEquals("invalid", RequestLabels.dryRun(List.of("")));
    }

    @Test
    void theCoreGroupAndNoSubresourceAreEmptyLabels() {
        RequestLabels l =
                RequestLabels.of(
                        Verb.GET, "GET", null, "v1", "pods", null, "ns", "p", null, List.of());
        assertEquals("", l.group());
        assertEquals("", l.subresource());
    }
}
