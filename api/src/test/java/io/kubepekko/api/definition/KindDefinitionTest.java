package io.kubepekko.api.definition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.registry.ResourceType;
import io.kubepekko.api.registry.ScaleSpec;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.table.Column;
import io.kubepekko.api.table.TablePrinter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A kind is one value: it cannot be made with a part missing or contradicting another. */
class KindDefinitionTest {

    private static ResourceType.Builder widgets() {
        return ResourceType.builder("example.com", "v1", "Widget", "widgets");
    }

    private static final TablePrinter NO_COLUMNS =
            new TablePrinter() {
                @Override
                public List<Column> columns() {
                    return List.of();
                }

                @Override
                public List<Object> cells(JsonNode object, Instant now) {
                    return List.of();
                }
            };

    @Test
    void refusesAKindWithoutATablePrinter() {
        NullPointerException e =
                assertThrows(
                        NullPointerException.class,
                        () -> KindDefinition.builtin(widgets(), Strategy.GENERIC, null));
        assertEquals("Widget lacks a Table printer", e.getMessage());
    }

    @Test
    void refusesABuiltinKindWithoutAStrategy() {
        assertThrows(
                NullPointerException.class,
                () -> KindDefinition.builtin(widgets(), null, TablePrinter.DEFAULT));
    }

    @Test
    void refusesAPrinterWithoutColumns() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new KindDefinition(widgets().build(), NO_COLUMNS));
        assertEquals(
                "Widget.example.com is incomplete: its Table printer has no columns",
                e.getMessage());
    }

    @Test
    void refusesAScaleSubresourceWithoutWhereScaleReads() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new KindDefinition(
                                        widgets().subresource("scale").build(),
                                        TablePrinter.DEFAULT));
        assertTrue(
                e.getMessage().contains("a scale subresource needs a scale spec"), e.getMessage());
        assertTrue(
                new KindDefinition(
                                widgets().scale(ScaleSpec.WORKLOAD).build(), TablePrinter.DEFAULT)
                        .subresources()
                        .contains("scale"));
    }

    @Test
    void refusesAFieldLabelAliasToALabelTheKindDoesNotSelectOn() {
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () ->
                                new KindDefinition(
                                        widgets()
                                                .selectableFields("spec.color")
                                                .fieldLabelAlias("spec.colour", "spec.size")
                                                .build(),
                                        TablePrinter.DEFAULT));
        assertTrue(
                e.getMessage().contains("field label alias spec.colour names spec.size"),
                e.getMessage());
    }

    @Test
    void refusesSelectableFieldsListedTwiceOrImplied() {
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new KindDefinition(
                                widgets()
                                        .selectableFields("spec.color")
                                        .selectableField("spec.color", "spec.tint", "")
                                        .build(),
                                TablePrinter.DEFAULT));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        new KindDefinition(
                                widgets().selectableFields("metadata.name").build(),
                                TablePrinter.DEFAULT));
    }

    @Test
    void aBuiltinDefinitionCarriesItsEntryStrategyAndPrinter() {
        Strategy strategy = new Strategy() {};
        KindDefinition d =
                KindDefinition.builtin(widgets().status(), strategy, TablePrinter.DEFAULT);
        assertTrue(d.type().builtin());
        assertSame(strategy, d.strategy());
        assertSame(strategy, d.type().strategy());
        assertSame(TablePrinter.DEFAULT, d.printer());
        assertEquals(Set.of("status"), d.subresources());
        assertFalse(d.clusterValues().isPresent());
        assertFalse(widgets().build().builtin(), "a kind made at run time is not built in");
    }

    @Test
    void clusterValuesAreTheStrategysForServicesOnly() {
        for (KindDefinition d : BuiltinKinds.all()) {
            assertEquals(
                    d.type().kind().equals("Service"),
                    d.clusterValues().isPresent(),
                    d.type().kind());
        }
    }

    // ---- the registry takes definitions, whoever made them

    @Test
    void registryServesADefinitionAddedBesideTheBuiltins() {
        List<KindDefinition> all = new ArrayList<>(BuiltinKinds.all());
        KindDefinition widget = new KindDefinition(widgets().build(), TablePrinter.DEFAULT);
        all.add(widget);
        Registry registry = new Registry(all);
        assertSame(widget, registry.definition("example.com", "v1", "widgets").orElseThrow());
        assertSame(widget.type(), registry.find("example.com", "v1", "widgets").orElseThrow());
        assertEquals(BuiltinKinds.all().size() + 1, registry.definitions().size());
    }

    @Test
    void registryRefusesTwoDefinitionsOfOneResource() {
        KindDefinition widget = new KindDefinition(widgets().build(), TablePrinter.DEFAULT);
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> new Registry(List.of(widget, widget)));
        assertEquals("duplicate registry entry example.com/v1/widgets", e.getMessage());
    }

    @Test
    void registryRefusesAForwardedCreateNoKindTakes() {
        KindDefinition bindings = BuiltinDefinitions.of("", "Binding");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new Registry(List.of(bindings)));
        assertEquals(
                "bindings. forwards its creates to pods/binding, which takes none", e.getMessage());
        KindDefinition podsWithoutBinding =
                new KindDefinition(
                        ResourceType.builder("", "v1", "Pod", "pods")
                                .subresource("binding")
                                .build(),
                        TablePrinter.DEFAULT);
        assertThrows(
                IllegalArgumentException.class,
                () -> new Registry(List.of(bindings, podsWithoutBinding)));
        new Registry(List.of(bindings, BuiltinDefinitions.of("", "Pod")));
    }
}
