package io.kubepekko.api.table;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Secrets: Name, Type, Data (the number of keys), Age. */
public final class SecretPrinter implements TablePrinter {

    private static final String TYPE =
            "Used to facilitate programmatic handling of secret data. More info: "
                    + "https://kubernetes.io/docs/concepts/configuration/secret/#secret-types";
    private static final String DATA =
            "Data contains the secret data. Each key must consist of alphanumeric "
                    + "characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, "
                    + "representing the arbitrary (possibly non-string) data value here. Described in "
                    + "https://tools.ietf.org/html/rfc4648#section-4";

    // Kubernetes declares Data a string column yet fills it with an integer; we keep both as they
    // are.
    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Type", TYPE),
                    Column.string("Data", DATA),
                    ConfigCells.AGE);

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode object, Instant now) {
        return List.of(
                ConfigCells.name(object),
                ConfigCells.text(object.get("type")),
                keys(object),
                Ages.of(object, now));
    }

    /**
     * The keys kube counts: its internal Secret has {@code stringData} folded into {@code data}, so
     * a key in both counts once. Our store folds them too; this keeps the count right if it did
     * not.
     */
    private static long keys(JsonNode secret) {
        Set<String> keys = new HashSet<>();
        for (String field : List.of("data", "stringData")) {
            JsonNode map = secret.get(field);
            if (map != null && map.isObject()) {
                map.fieldNames().forEachRemaining(keys::add);
            }
        }
        return keys.size();
    }
}
