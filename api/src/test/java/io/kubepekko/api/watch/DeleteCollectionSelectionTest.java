package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A collection delete selects with the parsed list options: their selectors, at the latest version,
 * unpaged.
 */
class DeleteCollectionSelectionTest {

    @Test
    void keepsTheSelectorsAndReadsEverythingAtTheLatestVersion() {
        ReadOptions parsed =
                ReadOptions.parse(
                        ReadOptions.Verb.LIST,
                        Map.of(
                                "labelSelector", List.of("app=web", "app=db"),
                                "fieldSelector", List.of("metadata.name=a"),
                                "limit", List.of("5"),
                                "resourceVersion", List.of("0")),
                        FeatureGates.defaults());
        ReadOptions selection = parsed.forDeleteCollection();
        assertEquals(
                new ReadOptions(
                        ReadOptions.Verb.LIST,
                        ReadOptions.MOST_RECENT,
                        0,
                        false,
                        false,
                        null,
                        "app=web",
                        "metadata.name=a"),
                selection);
    }

    @Test
    void noSelectorsSelectEverything() {
        ReadOptions selection =
                ReadOptions.parse(ReadOptions.Verb.LIST, Map.of(), FeatureGates.defaults())
                        .forDeleteCollection();
        assertEquals("", selection.labelSelector());
        assertEquals("", selection.fieldSelector());
    }
}
