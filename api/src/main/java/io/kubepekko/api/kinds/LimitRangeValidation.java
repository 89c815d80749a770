package io.kubepekko.api.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubepekko.api.meta.Quantity;
import io.kubepekko.api.status.FieldError;
import io.kubepekko.api.validation.BadValue;
import io.kubepekko.api.validation.FieldPath;
import io.kubepekko.api.validation.LabelValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's {@code ValidateLimitRange} of {@code spec.limits}: each item's type (standard or
 * qualified, once), its resource names (container resources for Pod and Container items), no
 * defaults on a Pod item, a storage bound on a PersistentVolumeClaim item, and per resource {@code
 * min ≤ defaultRequest ≤ default ≤ max}, a ratio of at least 1 and at most max/min, and default ==
 * defaultRequest for resources that cannot be overcommitted. kube ranges over Go maps, so its
 * errors come in no fixed order; here resources are taken in name order. A quantity that is no
 * quantity (which kube's decoder refuses) is a 422 naming its field.
 */
final class LimitRangeValidation {
    private LimitRangeValidation() {}

    static final Set<String> STANDARD_TYPES = Set.of("Pod", "Container", "PersistentVolumeClaim");

    /** kube's {@code standardResources} ({@code helper.IsStandardResourceName}). */
    private static final Set<String> STANDARD_RESOURCES =
            Set.of(
                    "cpu",
                    "memory",
                    "ephemeral-storage",
                    "requests.cpu",
                    "requests.memory",
                    "requests.ephemeral-storage",
                    "limits.cpu",
                    "limits.memory",
                    "limits.ephemeral-storage",
                    "pods",
                    "resourcequotas",
                    "services",
                    "replicationcontrollers",
                    "secrets",
                    "configmaps",
                    "persistentvolumeclaims",
                    "storage",
                    "requests.storage",
                    "services.nodeports",
                    "services.loadbalancers");

    private static final Set<String> STANDARD_CONTAINER_RESOURCES =
            Set.of("cpu", "memory", "ephemeral-storage");

    /** kube's {@code resource.MaxMilliValue}. */
    private static final long MAX_MILLI_VALUE = Long.MAX_VALUE / 1000;

    private static final Quantity ONE = Quantity.ONE;

    static List<FieldError> validate(JsonNode limits, FieldPath path) {
        List<FieldError> errs = new ArrayList<>();
        if (!limits.isArray()) {
            return errs;
        }
        Set<String> types = new HashSet<>();
        for (int i = 0; i < limits.size(); i++) {
            item(limits.get(i), path.index(i), types, errs);
        }
        return errs;
    }

    private static void item(
            JsonNode limit, FieldPath idx, Set<String> types, List<FieldError> errs) {
        String type = Nodes.text(limit, "type");
        errs.addAll(typeName(type, idx.child("type")));
        if (!types.add(type)) {
            errs.add(FieldError.duplicate(idx.child("type").toString(), type));
        }
        Set<String> keys = new TreeSet<>();
        Map<String, Parsed> max = quantities(limit, "max", type, idx, keys, errs);
        Map<String, Parsed> min = quantities(limit, "min", type, idx, keys, errs);
        Map<String, Parsed> defaults = Map.of();
        Map<String, Parsed> defaultRequests = Map.of();
        if (type.equals("Pod")) {
            for (String f : new String[] {"default", "defaultRequest"}) {
                if (limit.path(f).size() > 0) {
                    errs.add(
                            FieldError.forbidden(
                                    idx.child(f).toString(),
                                    "may not be specified when `type` is 'Pod'"));
                }
            }
        } else {
            defaults = quantities(limit, "default", type, idx, keys, errs);
            defaultRequests = quantities(limit, "defaultRequest", type, idx, keys, errs);
        }
        if (type.equals("PersistentVolumeClaim")
                && !limit.path("min").has("storage")
                && !limit.path("max").has("storage")) {
            errs.add(
                    FieldError.required(
                            idx.child("limits").toString(),
                            "either minimum or maximum storage value is required, but neither was provided"));
        }
        Map<String, Parsed> ratios =
                quantities(limit, "maxLimitRequestRatio", type, idx, keys, errs);
        for (String k : keys) {
            Parsed lo = min.get(k);
            Parsed hi = max.get(k);
            Parsed dflt = defaults.get(k);
            Parsed dreq = defaultRequests.get(k);
            Parsed ratio = ratios.get(k);
            // Each pair must be ordered, the field named and the value shown as kube's
            // ValidateLimitRange name them.
            notAbove(errs, idx.child("min").key(k), lo, lo, "min", hi, "max");
            notAbove(
                    errs,
                    idx.child("defaultRequest").key(k),
                    dreq,
                    lo,
                    "min",
                    dreq,
                    "default request");
            notAbove(
                    errs,
                    idx.child("defaultRequest").key(k),
                    dreq,
                    dreq,
                    "default request",
                    hi,
                    "max");
            notAbove(
                    errs,
                    idx.child("defaultRequest").key(k),
                    dreq,
                    dreq,
                    "default request",
                    dflt,
                    "default limit");
            notAbove(errs, idx.child("default").key(k), lo, lo, "min", dflt, "default");
            notAbove(errs, idx.child("default").key(k), hi, dflt, "default", hi, "max");
            if (ratio != null && ratio.q.compareTo(ONE) < 0) {
                errs.add(
                        invalid(
                                idx.child("maxLimitRequestRatio").key(k),
                                ratio,
                                "ratio " + ratio + " is less than 1"));
            }
            if (ratio != null && lo != null && hi != null) {
                ratioAgainstBounds(ratio, lo, hi, idx.child("maxLimitRequestRatio").key(k), errs);
            }
            if (!overcommitAllowed(k)
                    && dflt != null
                    && dreq != null
                    && dflt.q.compareTo(dreq.q) != 0) {
                errs.add(
                        invalid(
                                idx.child("defaultRequest").key(k),
                                dreq,
                                "default value "
                                        + dflt
                                        + " must equal to defaultRequest value "
                                        + dreq
                                        + " in "
                                        + k));
            }
        }
    }

    /**
     * kube's {@code "<lower> value <x> is greater than <upper> value <y>"} at {@code field}
     * (showing {@code shown}) when both are set and out of order.
     */
    private static void notAbove(
            List<FieldError> errs,
            FieldPath field,
            Parsed shown,
            Parsed lower,
            String lowerName,
            Parsed upper,
            String upperName) {
        if (lower != null && upper != null && lower.q.compareTo(upper.q) > 0) {
            errs.add(
                    invalid(
                            field,
                            shown,
                            lowerName
                                    + " value "
                                    + lower
                                    + " is greater than "
                                    + upperName
                                    + " value "
                                    + upper));
        }
    }

    /** The ratio may not exceed max/min: kube's float arithmetic, in thousandths when they fit. */
    private static void ratioAgainstBounds(
            Parsed ratio, Parsed lo, Parsed hi, FieldPath path, List<FieldError> errs) {
        double ratioValue = ratio.q.value();
        long minValue = lo.q.value();
        long maxValue = hi.q.value();
        if (ratio.q.value() < MAX_MILLI_VALUE
                && minValue < MAX_MILLI_VALUE
                && maxValue < MAX_MILLI_VALUE) {
            ratioValue = (double) ratio.q.milliValue() / 1000;
            minValue = lo.q.milliValue();
            maxValue = hi.q.milliValue();
        }
        double bound = (double) maxValue / (double) minValue;
        if (ratioValue > bound) {
            errs.add(
                    invalid(
                            path,
                            ratio,
                            "ratio "
                                    + ratio
                                    + " is greater than max/min = "
                                    + String.format(Locale.ROOT, "%f", bound)));
        }
    }

    /**
     * The quantities of one map of the item, its resource names checked; a text that is no quantity
     * is reported and left out.
     */
    private static Map<String, Parsed> quantities(
            JsonNode limit,
            String field,
            String type,
            FieldPath idx,
            Set<String> keys,
            List<FieldError> errs) {
        SortedMap<String, Parsed> parsed = new TreeMap<>();
        Nodes.stringMap(limit.get(field))
                .forEach(
                        (k, text) -> {
                            FieldPath p = idx.child(field).key(k);
                            errs.addAll(resourceName(type, k, p));
                            keys.add(k);
                            Quantity.parse(text)
                                    .ifPresentOrElse(
                                            q -> parsed.put(k, new Parsed(q, text)),
                                            () ->
                                                    errs.add(
                                                            FieldError.invalid(
                                                                    p.toString(),
                                                                    text,
                                                                    Quantity.FORMAT_WRONG)));
                        });
        return parsed;
    }

    /** {@code validateLimitRangeTypeName}. */
    private static List<FieldError> typeName(String type, FieldPath path) {
        List<FieldError> errs = LabelValidation.labelKey(type, path);
        if (errs.isEmpty() && !type.contains("/") && !STANDARD_TYPES.contains(type)) {
            return List.of(
                    FieldError.invalid(
                            path.toString(),
                            type,
                            "must be a standard limit type or fully qualified"));
        }
        return errs;
    }

    /** {@code validateLimitRangeResourceName}: container resources for Pod and Container items. */
    private static List<FieldError> resourceName(String type, String name, FieldPath path) {
        List<FieldError> errs = new ArrayList<>(standardResourceName(name, path));
        if (!type.equals("Pod") && !type.equals("Container")) {
            return errs;
        }
        if (!name.contains("/")) {
            if (!STANDARD_CONTAINER_RESOURCES.contains(name) && !name.startsWith("hugepages-")) {
                errs.add(
                        FieldError.invalid(
                                path.toString(),
                                name,
                                "must be a standard resource for containers"));
            }
        } else if (!name.contains("kubernetes.io/") && !extendedResourceName(name)) {
            errs.add(
                    FieldError.invalid(
                            path.toString(),
                            name,
                            "doesn't follow extended resource name standard"));
        }
        return errs;
    }

    /** {@code validateResourceName}. */
    private static List<FieldError> standardResourceName(String name, FieldPath path) {
        List<FieldError> errs = LabelValidation.labelKey(name, path);
        if (!errs.isEmpty()) {
            return errs;
        }
        if (!name.contains("/")
                && !STANDARD_RESOURCES.contains(name)
                && !name.startsWith("hugepages-")
                && !name.startsWith("requests.hugepages-")) {
            return List.of(
                    FieldError.invalid(
                            path.toString(),
                            name,
                            "must be a standard resource type or fully qualified"));
        }
        return List.of();
    }

    /** {@code helper.IsExtendedResourceName} of a qualified name that is not native. */
    private static boolean extendedResourceName(String name) {
        if (name.startsWith("requests.")) {
            return false;
        }
        return LabelValidation.labelKey("requests." + name, FieldPath.of("x")).isEmpty();
    }

    /** {@code helper.IsOvercommitAllowed}: native resources other than huge pages. */
    private static boolean overcommitAllowed(String name) {
        boolean natives = !name.contains("/") || name.contains("kubernetes.io/");
        return natives && !name.startsWith("hugepages-");
    }

    /**
     * kube passes the {@code resource.Quantity} as the bad value, which its field errors print with
     * {@code String()}: the canonical text, unquoted.
     */
    private static FieldError invalid(FieldPath path, Parsed bad, String detail) {
        return FieldError.invalid(path.toString(), new BadValue(bad.toString()), detail);
    }

    /** A quantity of the item and the text kube's {@code String()} gives for it. */
    private record Parsed(Quantity q, String text) {
        @Override
        public String toString() {
            return Quantity.print(text.strip());
        }
    }
}
