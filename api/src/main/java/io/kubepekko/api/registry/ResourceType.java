package io.kubepekko.api.registry;

import io.kubepekko.api.GroupResource;
import io.kubepekko.api.GroupVersionKind;
import io.kubepekko.api.auth.review.Review;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A registry entry: the names, scope, verbs and subresources of one resource type and the facts the
 * generic store reads off it (its {@link Strategy}, its selectable fields). A kind's definition
 * ({@code io.kubepekko.api.definition.KindDefinition}) assembles it with the kind's other parts;
 * this package knows nothing of the kinds themselves.
 *
 * @param selectableFields field-selector labels beyond {@code metadata.name}/{@code
 *     metadata.namespace}, each with where its value comes from
 * @param fieldLabelAliases old label spellings Kubernetes rewrites before matching ({@code
 *     spec.host} for {@code spec.nodeName}), old to current
 * @param tracksGeneration whether {@code metadata.generation} starts at 1 and is bumped on spec
 *     changes
 * @param allowCreateOnUpdate whether a PUT of a missing object creates it (otherwise 404)
 * @param scale where {@code /scale} reads and writes, or {@code null} without that subresource
 * @param returnsDeletedObject whether a DELETE that removes the object answers with it rather than
 *     a {@code Status} (the generic store's {@code ReturnDeletedObject})
 * @param forwardedCreate for a resource without objects of its own, where its creates go; {@code
 *     null} for every stored kind
 * @param builtin served from code rather than defined at run time (a custom resource); only
 *     built-in kinds without selectable fields use Kubernetes' default field-label conversion
 * @param review for a resource whose creates are answered from code and never stored (the access
 *     and token reviews), what answers them; {@code null} for every other kind
 */
public record ResourceType(
        String group,
        String version,
        String kind,
        String listKind,
        String resource,
        String singular,
        List<String> shortNames,
        List<String> categories,
        boolean namespaced,
        List<String> verbs,
        Set<String> subresources,
        List<SelectableField> selectableFields,
        Map<String, String> fieldLabelAliases,
        boolean tracksGeneration,
        boolean allowCreateOnUpdate,
        NameRule nameRule,
        ScaleSpec scale,
        Strategy strategy,
        boolean returnsDeletedObject,
        ForwardedCreate forwardedCreate,
        boolean builtin,
        Review review) {

    /** The verbs of an ordinary resource, sorted as discovery lists them. */
    public static final List<String> ALL_VERBS =
            List.of(
                    "create",
                    "delete",
                    "deletecollection",
                    "get",
                    "list",
                    "patch",
                    "update",
                    "watch");

    public ResourceType {
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        verbs = List.copyOf(verbs);
        subresources = Set.copyOf(subresources);
        selectableFields = List.copyOf(selectableFields);
        fieldLabelAliases = Map.copyOf(fieldLabelAliases);
        strategy = strategy == null ? Strategy.GENERIC : strategy;
        nameRule = nameRule == null ? NameRule.DNS_SUBDOMAIN : nameRule;
    }

    public GroupResource groupResource() {
        return new GroupResource(group, resource);
    }

    public GroupVersionKind gvk() {
        return new GroupVersionKind(group, version, kind);
    }

    public String apiVersion() {
        return gvk().apiVersion();
    }

    public boolean hasStatus() {
        return subresources.contains("status");
    }

    public boolean hasScale() {
        return scale != null && subresources.contains("scale");
    }

    /**
     * This entry with the strategy of a write made through another served version of the kind
     * ({@link Strategy#forRequestVersion}); itself when the strategy does not differ.
     */
    public ResourceType forRequestVersion(String apiVersion) {
        Strategy versioned = strategy.forRequestVersion(apiVersion);
        if (versioned == strategy) {
            return this;
        }
        return new ResourceType(
                group,
                version,
                kind,
                listKind,
                resource,
                singular,
                shortNames,
                categories,
                namespaced,
                verbs,
                subresources,
                selectableFields,
                fieldLabelAliases,
                tracksGeneration,
                allowCreateOnUpdate,
                nameRule,
                scale,
                versioned,
                returnsDeletedObject,
                forwardedCreate,
                builtin,
                review);
    }

    /** The field-selector labels of {@link #selectableFields()}, in order. */
    public List<String> selectableLabels() {
        return selectableFields.stream().map(SelectableField::label).toList();
    }

    public boolean supports(String verb) {
        return verbs.contains(verb);
    }

    /**
     * Whether objects of this kind are stored (a collection, a watch cache, discovery's storage
     * version hash); {@code false} for a resource that only forwards its creates ({@link
     * #forwardedCreate()}) or whose creates are answered from code ({@link #review()}).
     */
    public boolean stored() {
        return forwardedCreate == null && review == null;
    }

    /** Starts an entry with the common defaults: all verbs, no subresources, subdomain names. */
    public static Builder builder(String group, String version, String kind, String resource) {
        return new Builder(group, version, kind, resource);
    }

    /** Fluent construction of registry entries, so the built-in table reads as data. */
    public static final class Builder {
        private final String group;
        private final String version;
        private final String kind;
        private final String resource;
        private String singular;
        private List<String> shortNames = List.of();
        private List<String> categories = List.of();
        private boolean namespaced = true;
        private List<String> verbs = ALL_VERBS;
        private Set<String> subresources = Set.of();
        private final List<SelectableField> selectableFields = new ArrayList<>();
        private final Map<String, String> fieldLabelAliases = new LinkedHashMap<>();
        private boolean tracksGeneration;
        private boolean allowCreateOnUpdate;
        private NameRule nameRule = NameRule.DNS_SUBDOMAIN;
        private ScaleSpec scale;
        private Strategy strategy;
        private boolean returnsDeletedObject;
        private ForwardedCreate forwardedCreate;
        private boolean builtin;
        private Review review;

        private Builder(String group, String version, String kind, String resource) {
            this.group = group;
            this.version = version;
            this.kind = kind;
            this.resource = resource;
            this.singular = kind.toLowerCase(Locale.ROOT);
        }

        public Builder clusterScoped() {
            this.namespaced = false;
            return this;
        }

        public Builder shortNames(String... names) {
            this.shortNames = List.of(names);
            return this;
        }

        public Builder categories(String... categories) {
            this.categories = List.of(categories);
            return this;
        }

        public Builder verbs(String... verbs) {
            this.verbs = List.of(verbs);
            return this;
        }

        public Builder status() {
            var s = new HashSet<>(subresources);
            s.add("status");
            this.subresources = s;
            return this;
        }

        /**
         * Adds a subresource served with the owner's kind or a fixed one (e.g. {@code log}); {@link
         * #status()} and {@link #scale(ScaleSpec)} cover the two that carry data.
         */
        public Builder subresource(String name) {
            var s = new HashSet<>(subresources);
            s.add(name);
            this.subresources = s;
            return this;
        }

        public Builder scale(ScaleSpec scale) {
            var s = new HashSet<>(subresources);
            s.add("scale");
            this.subresources = s;
            this.scale = scale;
            return this;
        }

        /** Adds selectable fields whose labels are their own paths, reading empty when absent. */
        public Builder selectableFields(String... labels) {
            for (String label : labels) {
                selectableFields.add(SelectableField.of(label));
            }
            return this;
        }

        /** Adds a selectable field read from another path or with a value when absent. */
        public Builder selectableField(String label, String path, String absent) {
            selectableFields.add(new SelectableField(label, path, absent));
            return this;
        }

        /**
         * Adds a selectable field read from {@code path}, or from {@code fallback} when that is
         * absent or empty.
         */
        public Builder selectableFieldOr(String label, String path, String fallback) {
            selectableFields.add(new SelectableField(label, path, "", fallback));
            return this;
        }

        /** An old spelling of a selectable field's label that Kubernetes still accepts. */
        public Builder fieldLabelAlias(String old, String label) {
            fieldLabelAliases.put(old, label);
            return this;
        }

        /** Marks a kind served from code (see {@link ResourceType#builtin()}). */
        public Builder builtin() {
            this.builtin = true;
            return this;
        }

        public Builder tracksGeneration() {
            this.tracksGeneration = true;
            return this;
        }

        public Builder allowCreateOnUpdate() {
            this.allowCreateOnUpdate = true;
            return this;
        }

        public Builder nameRule(NameRule rule) {
            this.nameRule = rule;
            return this;
        }

        /**
         * A removing DELETE answers with the object, as the stores of pods, services and a few
         * others do.
         */
        public Builder returnsDeletedObject() {
            this.returnsDeletedObject = true;
            return this;
        }

        /**
         * A resource without objects of its own, whose only verb, create, acts through {@code
         * subresource} of the {@code resource} object the body names (core/v1 {@code bindings}).
         */
        public Builder forwardsCreateTo(String resource, String subresource) {
            this.forwardedCreate = new ForwardedCreate(resource, subresource);
            this.verbs = List.of("create");
            return this;
        }

        /**
         * A resource without objects, whose only verb, create, is answered by {@code review} and
         * stores nothing (kube's TokenReview, SubjectAccessReview and the other reviews).
         */
        public Builder answeredBy(Review review) {
            this.review = review;
            this.verbs = List.of("create");
            return this;
        }

        public Builder strategy(Strategy strategy) {
            this.strategy = strategy;
            return this;
        }

        /**
         * The entry; without {@link #strategy(Strategy)} it behaves as {@link Strategy#GENERIC}.
         */
        public ResourceType build() {
            return new ResourceType(
                    group,
                    version,
                    kind,
                    kind + "List",
                    resource,
                    singular,
                    shortNames,
                    categories,
                    namespaced,
                    verbs,
                    subresources,
                    selectableFields,
                    fieldLabelAliases,
                    tracksGeneration,
                    allowCreateOnUpdate,
                    nameRule,
                    scale,
                    strategy,
                    returnsDeletedObject,
                    forwardedCreate,
                    builtin,
                    review);
        }
    }
}
