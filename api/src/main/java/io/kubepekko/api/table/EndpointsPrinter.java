package io.kubepekko.api.table;

import static io.kubepekko.api.table.CoreCells.integer;
import static io.kubepekko.api.table.CoreCells.items;
import static io.kubepekko.api.table.CoreCells.text;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Endpoints as {@code kubectl get endpoints} shows them: the first few ready addresses with their
 * ports.
 */
public final class EndpointsPrinter implements TablePrinter {

    public static final EndpointsPrinter INSTANCE = new EndpointsPrinter();

    /** How many endpoints are listed before the rest is summed up as {@code + N more...}. */
    private static final int SHOWN = 3;

    private static final List<Column> COLUMNS =
            List.of(
                    Column.NAME,
                    Column.string("Endpoints", CoreDescriptions.ENDPOINTS_SUBSETS),
                    Column.string("Age", Descriptions.CREATION_TIMESTAMP));

    private EndpointsPrinter() {}

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(JsonNode endpoints, Instant now) {
        return List.of(
                text(endpoints.path("metadata"), "name"),
                format(endpoints),
                Ages.of(endpoints, now));
    }

    /**
     * Every (ready address, port) pair counts; addresses of port-less subsets (headless) count
     * alone.
     */
    static String format(JsonNode endpoints) {
        List<JsonNode> subsets = items(endpoints, "subsets");
        if (subsets.isEmpty()) {
            return CoreCells.NONE;
        }
        List<String> shown = new ArrayList<>();
        long count = 0;
        for (JsonNode subset : subsets) {
            List<JsonNode> addresses = items(subset, "addresses");
            List<JsonNode> ports = items(subset, "ports");
            if (ports.isEmpty()) {
                count += addresses.size();
                for (JsonNode address : addresses) {
                    if (shown.size() == SHOWN) {
                        break;
                    }
                    shown.add(text(address, "ip"));
                }
                continue;
            }
            for (JsonNode port : ports) {
                count += addresses.size();
                for (JsonNode address : addresses) {
                    if (shown.size() == SHOWN) {
                        break;
                    }
                    shown.add(hostPort(text(address, "ip"), integer(port, "port")));
                }
            }
        }
        String list = String.join(",", shown);
        return count > SHOWN ? list + " + " + (count - SHOWN) + " more..." : list;
    }

    /** {@code ip:port}, with an IPv6 address in brackets. */
    private static String hostPort(String ip, long port) {
        return (ip.indexOf(':') >= 0 ? "[" + ip + "]" : ip) + ":" + port;
    }
}
