package io.kubepekko.http.server;

import io.kubepekko.actors.Backoff;
import io.kubepekko.actors.authorization.RbacPolicySource;
import io.kubepekko.actors.controllers.QuotaSource;
import io.kubepekko.actors.plane.ControlPlane;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.AdmissionPluginSelection;
import io.kubepekko.api.admission.NamedPlugin;
import io.kubepekko.api.admission.WriteAdmission;
import io.kubepekko.api.admission.cel.CelMatchConditions;
import io.kubepekko.api.admission.limitranger.LimitRangeIndex;
import io.kubepekko.api.admission.limitranger.LimitRanger;
import io.kubepekko.api.admission.quota.QuotaLedger;
import io.kubepekko.api.admission.quota.ResourceQuotaAdmission;
import io.kubepekko.api.admission.serviceaccount.ServiceAccountAdmission;
import io.kubepekko.api.admission.serviceaccount.ServiceAccountIndex;
import io.kubepekko.api.admission.webhook.WebhookIndex;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.node.NodeRestriction;
import io.kubepekko.api.auth.rbac.EscalationCheck;
import io.kubepekko.api.auth.serviceaccount.BoundObjectIndex;
import io.kubepekko.api.auth.serviceaccount.BoundObjects;
import io.kubepekko.api.meta.Json;
import io.kubepekko.api.registry.ResourceType;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;

/**
 * The server's admission chain and what its plugins read: each plugin that needs objects of the
 * store (LimitRanges, ResourceQuotas, PriorityClasses and StorageClasses, ServiceAccounts, the
 * webhook configurations) reads them from an index an informer of its own keeps, and /readyz waits
 * until each has listed once.
 */
final class AdmissionPlugins {
    private static final GroupResource LIMIT_RANGES = new GroupResource("", "limitranges");
    private static final GroupResource SERVICE_ACCOUNTS = new GroupResource("", "serviceaccounts");
    private static final GroupResource MUTATING_WEBHOOKS =
            new GroupResource("admissionregistration.k8s.io", "mutatingwebhookconfigurations");
    private static final GroupResource VALIDATING_WEBHOOKS =
            new GroupResource("admissionregistration.k8s.io", "validatingwebhookconfigurations");

    private final LimitRangeIndex limitRanges;
    private final QuotaLedger quotaLedger;
    private final DefaultingPlugins defaulting;
    private final ServiceAccountIndex serviceAccounts;
    private final WebhookIndex webhooks;
    private final WriteAdmission admission;

    private AdmissionPlugins(
            LimitRangeIndex limitRanges,
            QuotaLedger quotaLedger,
            DefaultingPlugins defaulting,
            ServiceAccountIndex serviceAccounts,
            WebhookIndex webhooks,
            WriteAdmission admission) {
        this.limitRanges = limitRanges;
        this.quotaLedger = quotaLedger;
        this.defaulting = defaulting;
        this.serviceAccounts = serviceAccounts;
        this.webhooks = webhooks;
        this.admission = admission;
    }

    /**
     * Starts the plugins' informers (added to {@code sources}, which the caller stops) and builds
     * the chain.
     *
     * @param authorizer the whole authorizer chain, which the escalation check asks
     * @param bound the pods and nodes NodeRestriction reads
     * @param nameSuffixes the random suffixes of generated names (the token volume's)
     * @param metrics where each plugin's and each phase's time is recorded
     */
    static AdmissionPlugins start(
            ControlPlane controlPlane,
            Authorizer authorizer,
            RbacPolicySource rbacPolicy,
            BoundObjectIndex bound,
            Backoff informerBackoff,
            Clock clock,
            AdmissionSettings settings,
            Supplier<String> nameSuffixes,
            AdmissionObserver metrics,
            List<ActorRef<?>> sources) {
        IndexFeeds feeds = new IndexFeeds(controlPlane, informerBackoff, sources);
        LimitRangeIndex limitRanges =
                feeds.follow(LIMIT_RANGES, new LimitRangeIndex(), "limit-ranges");
        QuotaLedger quotaLedger = new QuotaLedger(clock, QuotaLedger.DEFAULT_CHARGE_TTL);
        sources.add(
                controlPlane
                        .system()
                        .systemActorOf(
                                QuotaSource.create(controlPlane, quotaLedger, informerBackoff),
                                "resource-quotas",
                                Props.empty()));
        DefaultingPlugins defaulting = DefaultingPlugins.start(feeds, settings.tolerations());
        ServiceAccountIndex serviceAccounts =
                feeds.follow(SERVICE_ACCOUNTS, new ServiceAccountIndex(clock), "service-accounts");
        WebhookIndex webhooks = new WebhookIndex(new CelMatchConditions(authorizer));
        AdmissionPluginSelection selection = settings.plugins();
        // A webhook plugin turned off follows no configuration: its side of the index stays
        // empty, listed once as such so that readiness does not wait for it.
        if (selection.enabled("MutatingAdmissionWebhook")) {
            feeds.follow(
                    MUTATING_WEBHOOKS,
                    webhooks.mutatingConfigurations(),
                    "mutating-webhook-configurations");
        } else {
            webhooks.replace(true, List.of());
        }
        if (selection.enabled("ValidatingAdmissionWebhook")) {
            feeds.follow(
                    VALIDATING_WEBHOOKS,
                    webhooks.validatingConfigurations(),
                    "validating-webhook-configurations");
        } else {
            webhooks.replace(false, List.of());
        }
        WriteAdmission admission =
                chain(
                        authorizer,
                        rbacPolicy,
                        bound,
                        new LimitRanger(limitRanges),
                        quotaLedger,
                        defaulting,
                        serviceAccountAdmission(controlPlane, serviceAccounts, nameSuffixes),
                        selection,
                        metrics);
        return new AdmissionPlugins(
                limitRanges, quotaLedger, defaulting, serviceAccounts, webhooks, admission);
    }

    /**
     * The ServiceAccount plugin, reading the accounts its informer follows and, where it misses,
     * the store at "Most Recent", with kube's 100–200 ms between attempts waited on the scheduler.
     */
    private static ServiceAccountAdmission serviceAccountAdmission(
            ControlPlane controlPlane, ServiceAccountIndex index, Supplier<String> nameSuffixes) {
        ResourceType accounts =
                controlPlane
                        .registry()
                        .find(new GroupResource("", "serviceaccounts"))
                        .orElseThrow();
        return new ServiceAccountAdmission(
                index,
                nameSuffixes,
                (namespace, name) ->
                        controlPlane
                                .get(accounts, namespace, name)
                                .thenApply(found -> found.map(Json::parseTrusted)),
                millis ->
                        CompletableFuture.runAsync(
                                () -> {},
                                CompletableFuture.delayedExecutor(
                                        millis,
                                        TimeUnit.MILLISECONDS,
                                        controlPlane.system().executionContext())),
                () -> ThreadLocalRandom.current().nextLong(100, 200));
    }

    /**
     * The plugins in kube's order: LimitRanger (mutating, then refusing), ServiceAccount (likewise,
     * with kube's live look-up before a pod create), NodeRestriction (in kube-apiserver's default
     * plugins; it reads the pods and nodes the token index follows), Priority,
     * DefaultTolerationSeconds and DefaultStorageClass after NodeRestriction, as kube orders them,
     * then the checks kube wraps the RBAC storage with whatever the authorization modes (they read
     * the RBAC objects and ask the whole authorizer chain for {@code escalate} and {@code bind});
     * ResourceQuota last, as kube orders it, so that only a write every other plugin admitted is
     * charged.
     */
    private static WriteAdmission chain(
            Authorizer authorizer,
            RbacPolicySource rbacPolicy,
            BoundObjectIndex bound,
            LimitRanger limitRanger,
            QuotaLedger quotaLedger,
            DefaultingPlugins defaulting,
            ServiceAccountAdmission serviceAccounts,
            AdmissionPluginSelection selection,
            AdmissionObserver metrics) {
        NodeRestriction.Lookup informed =
                new NodeRestriction.Lookup() {
                    @Override
                    public Optional<Pod> pod(String namespace, String name) {
                        return bound.find(BoundObjects.Kind.POD, namespace, name)
                                .map(live -> new Pod(live.uid(), live.nodeName()));
                    }

                    @Override
                    public Optional<String> nodeUid(String name) {
                        return bound.find(BoundObjects.Kind.NODE, "", name)
                                .map(BoundObjects.Live::uid);
                    }
                };
        // kube's plugin names, as its metrics label them; the escalation check is the RBAC
        // storage's in kube, not a plugin: its time counts in the phase's only.
        return WriteAdmission.chain(
                enabled(
                        selection,
                        List.of(
                                new NamedPlugin<>("LimitRanger", limitRanger),
                                new NamedPlugin<>("ServiceAccount", serviceAccounts),
                                new NamedPlugin<>("Priority", defaulting.priority),
                                new NamedPlugin<>(
                                        "DefaultTolerationSeconds", defaulting.tolerations),
                                new NamedPlugin<>("DefaultStorageClass", defaulting.storageClass))),
                enabled(
                        selection,
                        List.of(
                                new NamedPlugin<>("LimitRanger", limitRanger),
                                new NamedPlugin<>("ServiceAccount", serviceAccounts),
                                new NamedPlugin<>("NodeRestriction", new NodeRestriction(informed)),
                                new NamedPlugin<>("Priority", defaulting.priority),
                                new NamedPlugin<WriteAdmission>(
                                        null, new EscalationCheck(authorizer, rbacPolicy.policy())),
                                new NamedPlugin<>(
                                        "ResourceQuota", new ResourceQuotaAdmission(quotaLedger)))),
                metrics);
    }

    /**
     * The plugins of {@code all} that {@code selection} runs; an unnamed one (the RBAC storage's
     * escalation check, not a plugin in kube) always.
     */
    private static <P> List<NamedPlugin<P>> enabled(
            AdmissionPluginSelection selection, List<NamedPlugin<P>> all) {
        return all.stream().filter(p -> p.name() == null || selection.enabled(p.name())).toList();
    }

    WriteAdmission admission() {
        return admission;
    }

    /** The resources whose informers feed the quota ledger: the quotas' and what they need. */
    Set<GroupResource> quotaFollowed() {
        return quotaLedger.followed();
    }

    /** The webhook configurations the HTTP layer's webhook admission reads. */
    WebhookIndex webhooks() {
        return webhooks;
    }

    /** Why the plugins are not ready yet (an index that has not listed once), if they are not. */
    Optional<String> readiness() {
        return limitRanges
                .readiness()
                .or(serviceAccounts::readiness)
                .or(quotaLedger::readiness)
                .or(defaulting::readiness)
                .or(webhooks::readiness);
    }
}
