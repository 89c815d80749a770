package io.kubepekko.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * After the run, who owns pool object 0 of a cell: its managedFields entries as {@code
 * manager/Operation}, against what the cell's writes should leave. For five managers it also checks
 * that each manager owns its own revision annotation, the field its requests changed. A benchmark
 * whose writes did not do what they claim would measure something else.
 *
 * @param managers the entries found, in the object's order
 * @param problem what was not as expected, or null
 */
record OwnershipCheck(ApplyCell cell, List<String> managers, String problem) {

    private static final ObjectMapper JSON = new ObjectMapper();

    boolean ok() {
        return problem == null;
    }

    static OwnershipCheck of(HttpConn conn, ApplyLoad load, ApplyCell cell) throws IOException {
        HttpConn.Response got =
                conn.get(DeploymentFixture.path(load.namespace(0), load.name(cell, 0)));
        if (got.status() != 200) {
            return new OwnershipCheck(
                    cell, List.of(), "GET answered " + got.status() + ": " + got.text());
        }
        JsonNode managedFields = JSON.readTree(got.body()).path("metadata").path("managedFields");
        List<String> managers = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (JsonNode entry : managedFields) {
            String manager = entry.path("manager").asText();
            managers.add(manager + "/" + entry.path("operation").asText());
            int part = partOf(manager);
            if (cell == ApplyCell.APPLY_FIVE
                    && part >= 0
                    && entry.path("fieldsV1")
                            .path("f:metadata")
                            .path("f:annotations")
                            .path("f:" + DeploymentFixture.REVISION + part)
                            .isMissingNode()) {
                problems.add(
                        manager
                                + " does not own its annotation "
                                + DeploymentFixture.REVISION
                                + part);
            }
        }
        List<String> expected = ApplyLoad.expectedManagers(cell);
        if (!new HashSet<>(managers).equals(new HashSet<>(expected))
                || managers.size() != expected.size()) {
            problems.add(0, "expected " + String.join(", ", expected));
        }
        return new OwnershipCheck(
                cell, managers, problems.isEmpty() ? null : String.join("; ", problems));
    }

    /** k for the five-manager cell's manager of part k, else -1. */
    private static int partOf(String manager) {
        for (int k = 0; k < DeploymentFixture.MANAGERS; k++) {
            if (manager.equals(ApplyLoad.partManager(k))) {
                return k;
            }
        }
        return -1;
    }
}
