package io.kubepekko.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.kubepekko.http.server.ApiServerSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The defaults {@code docs/operations.md} states (every table whose columns start with "setting |
 * default") are those the server runs with: the modules' {@code reference.conf} and the built-in
 * {@code kubepekko-server.conf}, as {@link ApiServerSettings#resolve()} layers them.
 */
class DocumentedDefaultsTest {

    static final Path OPERATIONS =
            Path.of("..", "docs", "operations.md").toAbsolutePath().normalize();

    /** One documented default: the setting's full path and the value the docs give. */
    record Documented(String key, String value) {}

    private static final Config SERVER = ApiServerSettings.defaults().resolve().config();

    @Test
    void everyDocumentedDefaultIsTheOneTheServerRunsWith() throws IOException {
        List<Documented> documented = documented(Files.readAllLines(OPERATIONS));
        assertFalse(documented.isEmpty(), "no table of defaults found in " + OPERATIONS);
        List<String> wrong = new ArrayList<>();
        for (Documented d : documented) {
            if (!SERVER.hasPath(d.key())) {
                wrong.add(
                        d.key()
                                + ": documented as "
                                + d.value()
                                + ", but the server has no such setting");
            } else if (!same(SERVER, d.key(), d.value())) {
                wrong.add(
                        d.key()
                                + ": documented as "
                                + d.value()
                                + ", the server's is "
                                + SERVER.getValue(d.key()).render()
                                + " ("
                                + SERVER.getValue(d.key()).origin().description()
                                + ")");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void everyWatchCacheSettingIsDocumented() throws IOException {
        List<String> keys =
                documented(Files.readAllLines(OPERATIONS)).stream().map(Documented::key).toList();
        List<String> missing =
                SERVER.getConfig("kubepekko.watch").entrySet().stream()
                        .map(e -> "kubepekko.watch." + e.getKey())
                        .filter(k -> !keys.contains(k))
                        .sorted()
                        .toList();
        assertEquals(List.of(), missing, "settings of kubepekko.watch missing from " + OPERATIONS);
    }

    @Test
    void aDefaultThatDiffersFromTheDocsIsFound() {
        Config stale =
                ConfigFactory.empty()
                        .withValue(
                                "kubepekko.watch.checkpoint-margin",
                                ConfigValueFactory.fromAnyRef("35s"));
        assertFalse(same(stale, "kubepekko.watch.checkpoint-margin", "50s"));
        assertFalse(same(ConfigFactory.parseString("k = 1k"), "k", "64k"));
        assertFalse(same(ConfigFactory.parseString("k = off"), "k", "on"));
    }

    /**
     * The rows of the tables whose header starts with "setting | default". A row may name several
     * settings, {@code `a.b.c` / `d`}, with as many values, {@code 64k / 1k}: a name without a dot
     * is a sibling of the first one.
     */
    static List<Documented> documented(List<String> lines) {
        List<Documented> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : lines) {
            if (!line.startsWith("|")) {
                inTable = false;
                continue;
            }
            List<String> cells = cells(line);
            if (cells.size() >= 2
                    && cells.get(0).equals("setting")
                    && cells.get(1).equals("default")) {
                inTable = true;
            } else if (inTable && !cells.get(0).startsWith("---")) {
                String[] names = cells.get(0).split(" / ");
                String[] values = cells.get(1).split(" / ");
                if (names.length != values.length) {
                    throw new IllegalArgumentException(
                            "a row with "
                                    + names.length
                                    + " settings and "
                                    + values.length
                                    + " defaults: "
                                    + line);
                }
                String first = unquote(names[0]);
                String parent = first.substring(0, first.lastIndexOf('.') + 1);
                for (int i = 0; i < names.length; i++) {
                    String name = unquote(names[i]);
                    rows.add(
                            new Documented(
                                    name.contains(".") ? name : parent + name, values[i].trim()));
                }
            }
        }
        return rows;
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.endsWith("|") ? row.length() - 1 : row.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|")) {
            cells.add(cell.trim());
        }
        return cells;
    }

    private static String unquote(String name) {
        String n = name.trim();
        if (!n.startsWith("`") || !n.endsWith("`")) {
            throw new IllegalArgumentException("a setting's name is written `like.this`: " + name);
        }
        return n.substring(1, n.length() - 1);
    }

    /**
     * Whether {@code documented} is the value of {@code key}, read as a duration, a size, a switch
     * or a string.
     */
    static boolean same(Config config, String key, String documented) {
        Config doc =
                ConfigFactory.empty().withValue("v", ConfigValueFactory.fromAnyRef(documented));
        List<BiFunction<Config, String, Object>> readings =
                List.of(
                        Config::getDuration,
                        Config::getBytes,
                        Config::getBoolean,
                        Config::getString);
        for (BiFunction<Config, String, Object> read : readings) {
            Object given;
            Object stated;
            try {
                given = read.apply(config, key);
                stated = read.apply(doc, "v");
            } catch (ConfigException.BadValue | ConfigException.WrongType e) {
                continue;
            }
            return given.equals(stated);
        }
        return false;
    }
}
