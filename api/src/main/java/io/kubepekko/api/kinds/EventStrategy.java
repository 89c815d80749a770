package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubepekko.api.registry.DeletionRules;
import io.kubepekko.api.registry.GarbageCollectionPolicy;
import io.kubepekko.api.registry.NameRule;
import io.kubepekko.api.registry.Strategy;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import io.kubepekko.api.validation.NameValidation;
import io.kubepekko.api.validation.ObjectMetaValidation;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Events, stored as core/v1 Events whichever version wrote them (kube's {@code
 * ValidateEventCreate}/{@code ValidateEventUpdate}, {@code pkg/apis/core/validation/events.go}).
 * Every write passes the legacy checks: the involved object's namespace must agree with the
 * event's, and "new-style" events (with {@code eventTime}) need reportingComponent,
 * reportingInstance, action and reason within their lengths. Writes through events.k8s.io/v1 are
 * stricter ({@link #forRequestVersion}): a new event needs {@code eventTime}, a {@code type} of
 * Normal or Warning, a DNS-subdomain name and a valid series, and may not set the fields that
 * events.k8s.io deprecated; an update may change only the series and metadata. Paths in the
 * messages are core/v1's (kube validates the internal object), except that the reporting controller
 * is named as the request's version names it.
 */
public final class EventStrategy implements Strategy {

    /** Events take part in no garbage collection: a delete never adds a GC finalizer. */
    private static final DeletionRules DELETION =
            new DeletionRules() {
                @Override
                public GarbageCollectionPolicy defaultGarbageCollectionPolicy() {
                    return GarbageCollectionPolicy.UNSUPPORTED;
                }
            };

    static final String NAMESPACE_MISMATCH = "does not match event.namespace";
    private static final int REPORTING_INSTANCE_MAX = 128;
    private static final int ACTION_MAX = 128;
    private static final int REASON_MAX = 128;
    private static final int NOTE_MAX = 1024;
    private static final String NEEDS_UNSET = "needs to be unset";

    /** The versions kube validates with the legacy rules only. */
    private static final List<String> LEGACY_VERSIONS = List.of("v1", "events.k8s.io/v1beta1");

    /** The strategy of writes through events.k8s.io/v1 (and any later version). */
    private static final EventStrategy STRICT = new EventStrategy(true);

    private final boolean strict;

    /** The strategy of core/v1 writes, the storage version's. */
    public EventStrategy() {
        this(false);
    }

    private EventStrategy(boolean strict) {
        this.strict = strict;
    }

    @Override
    public Strategy forRequestVersion(String apiVersion) {
        return LEGACY_VERSIONS.contains(apiVersion) ? this : STRICT;
    }

    @Override
    public DeletionRules deletion() {
        return DELETION;
    }

    @Override
    public List<FieldError> validateCreate(ObjectNode obj) {
        List<FieldError> errs = legacy(obj);
        if (!strict) {
            return errs;
        }
        String name = Nodes.text(obj.path("metadata"), "name");
        if (!name.isEmpty()) {
            errs.addAll(ObjectMetaValidation.nameErrors(NameRule.DNS_SUBDOMAIN, name));
        }
        errs.addAll(series(obj));
        if (!isSet(obj.get("eventTime"))) {
            errs.add(FieldError.required("eventTime", ""));
        }
        String type = Nodes.text(obj, "type");
        if (!type.equals("Normal") && !type.equals("Warning")) {
            errs.add(FieldError.invalid("type", "", "has invalid value: " + type));
        }
        if (isSet(obj.get("firstTimestamp"))) {
            errs.add(FieldError.invalid("firstTimestamp", "", NEEDS_UNSET));
        }
        if (isSet(obj.get("lastTimestamp"))) {
            errs.add(FieldError.invalid("lastTimestamp", "", NEEDS_UNSET));
        }
        if (obj.path("count").asLong(0) != 0) {
            errs.add(FieldError.invalid("count", "", NEEDS_UNSET));
        }
        JsonNode source = obj.path("source");
        if (!Nodes.text(source, "component").isEmpty() || !Nodes.text(source, "host").isEmpty()) {
            errs.add(FieldError.invalid("source", "", NEEDS_UNSET));
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = legacy(obj);
        if (!strict) {
            return errs;
        }
        if (!Nodes.same(normalized(obj.get("series")), normalized(old.get("series")))) {
            errs.addAll(series(obj));
        }
        for (String field : IMMUTABLE) {
            immutable(obj, old, field).ifPresent(errs::add);
        }
        return errs;
    }

    /**
     * What an events.k8s.io/v1 update may not change, in kube's order (which checks reason twice,
     * so a changed reason is reported twice).
     */
    private static final List<String> IMMUTABLE =
            List.of(
                    "involvedObject",
                    "reason",
                    "message",
                    "source",
                    "firstTimestamp",
                    "lastTimestamp",
                    "count",
                    "reason",
                    "type",
                    "eventTime",
                    "action",
                    "related",
                    "reportingComponent",
                    "reportingInstance");

    /** kube's {@code legacyValidateEvent}: what every event, of any version, must satisfy. */
    private List<FieldError> legacy(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String namespace = Nodes.text(obj.path("metadata"), "namespace");
        String involvedNs = Nodes.text(obj.path("involvedObject"), "namespace");
        String nsPath = FieldPath.of("involvedObject", "namespace").toString();
        if (!isSet(obj.get("eventTime"))) {
            boolean ok =
                    involvedNs.isEmpty()
                            ? namespace.isEmpty() || namespace.equals("default")
                            : namespace.equals(involvedNs);
            if (!ok) {
                errs.add(FieldError.invalid(nsPath, involvedNs, NAMESPACE_MISMATCH));
            }
        } else {
            if (involvedNs.isEmpty()
                    && !namespace.equals("default")
                    && !namespace.equals("kube-system")) {
                errs.add(FieldError.invalid(nsPath, involvedNs, NAMESPACE_MISMATCH));
            }
            // kube names the field as the request's version does.
            String controllerPath = strict ? "reportingController" : "reportingComponent";
            String controller = Nodes.text(obj, "reportingComponent");
            if (controller.isEmpty()) {
                errs.add(FieldError.required(controllerPath, ""));
            }
            errs.addAll(LabelValidation.labelKey(controller, FieldPath.of(controllerPath)));
            String instance = Nodes.text(obj, "reportingInstance");
            if (instance.isEmpty()) {
                errs.add(FieldError.required("reportingInstance", ""));
            }
            if (instance.length() > REPORTING_INSTANCE_MAX) {
                errs.add(tooManyCharacters("reportingInstance", REPORTING_INSTANCE_MAX));
            }
            String action = Nodes.text(obj, "action");
            if (action.isEmpty()) {
                errs.add(FieldError.required("action", ""));
            }
            if (action.length() > ACTION_MAX) {
                errs.add(tooManyCharacters("action", ACTION_MAX));
            }
            String reason = Nodes.text(obj, "reason");
            if (reason.isEmpty()) {
                errs.add(FieldError.required("reason", ""));
            }
            if (reason.length() > REASON_MAX) {
                errs.add(tooManyCharacters("reason", REASON_MAX));
            }
            if (Nodes.text(obj, "message").length() > NOTE_MAX) {
                errs.add(tooManyCharacters("message", NOTE_MAX));
            }
        }
        for (String msg : NameValidation.dns1123Subdomain(namespace)) {
            errs.add(FieldError.invalid("namespace", namespace, msg));
        }
        return errs;
    }

    private static FieldError tooManyCharacters(String field, int max) {
        return FieldError.invalid(field, "", "can have at most " + max + " characters");
    }

    /** kube's {@code validateV1EventSeries}. */
    private static List<FieldError> series(ObjectNode obj) {
        JsonNode series = obj.get("series");
        if (series == null || !series.isObject()) {
            return List.of();
        }
        List<FieldError> errs = new ArrayList<>();
        if (series.path("count").asLong(0) < 2) {
            errs.add(FieldError.invalid("series.count", "", "should be at least 2"));
        }
        if (!isSet(series.get("lastObservedTime"))) {
            errs.add(FieldError.required("series.lastObservedTime", ""));
        }
        return errs;
    }

    /** kube's {@code ValidateImmutableField} of one top-level field, with Go's value printing. */
    private static Optional<FieldError> immutable(ObjectNode obj, ObjectNode old, String field) {
        JsonNode now = normalized(obj.get(field));
        if (Nodes.same(now, normalized(old.get(field)))) {
            return Optional.empty();
        }
        // The internal field behind core/v1's reportingComponent is ReportingController.
        String path = field.equals("reportingComponent") ? "reportingController" : field;
        return Optional.of(
                FieldError.invalid(
                        path, goValue(field, now), ObjectMetaValidation.FIELD_IMMUTABLE));
    }

    /** A value as Go's field errors print it: strings, numbers, times by their String form. */
    private static Object goValue(String field, JsonNode value) {
        return switch (field) {
            case "count" -> value == null ? 0L : value.asLong();
            case "firstTimestamp", "lastTimestamp", "eventTime" -> goTime(value);
            case "involvedObject", "source" ->
                    BadValue.of(value == null ? Nodes.F.objectNode() : value);
            case "related" -> value == null ? null : BadValue.of(value);
            default -> value == null ? "" : value.asText();
        };
    }

    private static final DateTimeFormatter GO_TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    /** Go's {@code time.Time.String()} of a UTC time: {@code 2006-01-02 15:04:05.5 +0000 UTC}. */
    private static String goTime(JsonNode value) {
        Instant t;
        try {
            t = value == null ? null : Instant.parse(value.asText());
        } catch (DateTimeParseException e) {
            return value.asText();
        }
        if (t == null) {
            return "0001-01-01 00:00:00 +0000 UTC";
        }
        String fraction = "";
        if (t.getNano() != 0) {
            fraction = String.format(".%09d", t.getNano()).replaceAll("0+$", "");
        }
        return GO_TIME.format(t) + fraction + " +0000 UTC";
    }

    /**
     * A value as Go compares it after decoding: null, absent and the zero value of a scalar or
     * struct are the same thing (an empty string, 0, an object of only such values).
     */
    private static JsonNode normalized(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return null;
        }
        if (value.isTextual() && value.asText().isEmpty()) {
            return null;
        }
        if (value.isNumber() && value.asLong() == 0 && value.asDouble() == 0) {
            return null;
        }
        if (value.isObject()) {
            ObjectNode out = Nodes.F.objectNode();
            for (Map.Entry<String, JsonNode> e : value.properties()) {
                JsonNode v = normalized(e.getValue());
                if (v != null) {
                    out.set(e.getKey(), v);
                }
            }
            return out.isEmpty() ? null : out;
        }
        return value;
    }

    /** Whether a time is set: neither absent, null, empty nor Go's zero time. */
    private static boolean isSet(JsonNode time) {
        if (time == null || time.isNull() || time.isMissingNode()) {
            return false;
        }
        String text = time.asText("");
        return !text.isEmpty() && !text.startsWith("0001-01-01T00:00:00");
    }
}
