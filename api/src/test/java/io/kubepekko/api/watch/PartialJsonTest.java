package io.kubepekko.api.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kubepekko.api.meta.Json;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PartialJsonTest {

    private static byte[] json(String s) {
        return s.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
    }

    private static String parsed(Set<String> paths, String s) {
        return Json.MAPPER.valueToTree(PartialJson.keeping(paths).parse(json(s))).toString();
    }

    @Test
    void keepsTheNamedPathsAndEverythingBelowThem() {
        String obj =
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'a','namespace':'n',"
                        + "'labels':{'x':'1','y':{'z':2}},'managedFields':[{'manager':'m'}]},"
                        + "'data':{'k':'v'}}";
        assertEquals(
                "{\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\",\"y\":{\"z\":2}}}}",
                parsed(Set.of("kind", "metadata.name", "metadata.labels"), obj));
    }

    @Test
    void ofAnArrayOnThePathEachObjectKeepsTheRestAndAScalarWhereAnObjectWasExpectedIsDropped() {
        String obj =
                "{'spec':{'containers':[{'name':'c','image':'i','env':[{'name':'A'}]},"
                        + "{'image':'only'},'scalar',['nested'],{'name':'d'}]},'status':'odd'}";
        assertEquals(
                "{\"spec\":{\"containers\":[{\"name\":\"c\",\"env\":[{\"name\":\"A\"}]},{\"name\":\"d\"}]}}",
                parsed(Set.of("spec.containers.name", "spec.containers.env", "status.phase"), obj));
    }

    @Test
    void anArrayOnThePathWhoseObjectsHoldNothingKeptIsLeftOutAndAKeptArrayStaysWhole() {
        String obj = "{'spec':{'volumes':[{'name':'v'}],'containers':[1,2]},'ports':[1,[2]]}";
        assertEquals(
                "{\"ports\":[1,[2]]}",
                parsed(Set.of("spec.volumes.secret", "spec.containers.env", "ports"), obj));
    }

    @Test
    void anObjectOnThePathWithNothingKeptIsLeftOutButAKeptEmptyOneStays() {
        assertEquals(
                "{\"metadata\":{\"labels\":{}}}",
                parsed(
                        Set.of("metadata.ownerReferences", "metadata.labels", "spec.nodeName"),
                        "{'metadata':{'name':'a','labels':{}},'spec':{'x':1}}"));
    }

    @Test
    void keptValuesMayBeNullOrScalarsAndFieldsAfterTheKeptOnesAreNotRead() {
        // Reading stops once every kept top-level field is read: the broken tail is never seen.
        assertEquals(
                "{\"kind\":null,\"metadata\":{\"name\":\"a\"}}",
                parsed(
                        Set.of("kind", "metadata.name"),
                        "{'kind':null,'metadata':{'name':'a'},'data':{'k': nonsense"));
    }

    @Test
    void aFieldAfterTheKeptOnesIsReadWhenAKeptOneIsMissing() {
        assertEquals(
                "{\"metadata\":{\"name\":\"a\"},\"spec\":{\"nodeName\":\"n1\"}}",
                parsed(
                        Set.of("metadata.name", "spec.nodeName", "status.phase"),
                        "{'metadata':{'name':'a'},'data':{'k':[1,{'a':2}]},'spec':{'nodeName':'n1'}}"));
    }

    @Test
    void notAnObjectOrNotJsonIsIllegal() {
        PartialJson p = PartialJson.keeping(Set.of("metadata.name"));
        assertThrows(IllegalArgumentException.class, () -> p.parse(json("[1,2]")));
        assertThrows(IllegalArgumentException.class, () -> p.parse(json("'text'")));
        assertThrows(IllegalArgumentException.class, () -> p.parse(json("{'metadata':{'name':")));
        assertThrows(
                IllegalArgumentException.class,
                () -> p.parse(json("{'a':1,'metadata':{'name':'a'")));
        assertThrows(IllegalArgumentException.class, () -> p.parse(new byte[0]));
    }
}
