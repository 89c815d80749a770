package io.kubepekko.bench;

import io.kubepekko.api.auth.UserInfo;
import io.kubepekko.api.auth.authorizer.AuthorizationAttributes;
import io.kubepekko.api.auth.authorizer.Authorizer;
import io.kubepekko.api.auth.authorizer.Authorizers;
import io.kubepekko.api.auth.rbac.BootstrapPolicy;
import io.kubepekko.api.auth.rbac.PolicyRule;
import io.kubepekko.api.auth.rbac.RbacAuthorizer;
import io.kubepekko.api.auth.rbac.RbacBinding;
import io.kubepekko.api.auth.rbac.RbacPolicy;
import io.kubepekko.api.auth.rbac.RbacRole;
import io.kubepekko.api.auth.rbac.RoleRef;
import io.kubepekko.api.auth.rbac.Subject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The authorization decision benchmark (issue 25: p99 &le; 20 µs with 1,000 Roles and bindings):
 * kube's bootstrap policy plus N Roles and N RoleBindings spread over namespaces, each binding
 * granting a user and a group; each decision goes through the chain kube-apiserver runs
 * (system:masters, then RBAC) and is timed alone. Requests mix allowed gets of a user's own
 * namespace, allowed lists through a group, and denials (which visit every applicable rule). Single
 * thread, in process.
 *
 * <pre>
 *   bench/authz [--roles 1000] [--namespaces 100] [--duration 10s]
 * </pre>
 */
public final class AuthorizerBench {

    static final String USAGE =
            """
      usage: bench/authz [options]
        --roles N               Roles and RoleBindings (each; default 1000)
        --namespaces N          namespaces they are spread over (default 100)
        --duration D            measured time (default 10s)
        --warmup D              unmeasured run before (default 3s)
      """;

    private AuthorizerBench() {}

    public static void main(String[] args) {
        Map<String, String> flags =
                BenchFlags.parseOrExit(
                        args,
                        a ->
                                BenchFlags.parse(
                                        a,
                                        List.of("roles", "namespaces", "duration", "warmup"),
                                        USAGE),
                        USAGE);
        int roles = BenchFlags.positive(flags.getOrDefault("roles", "1000"));
        int namespaces = BenchFlags.positive(flags.getOrDefault("namespaces", "100"));
        Duration duration = BenchFlags.duration(flags.getOrDefault("duration", "10s"));
        Duration warmup = BenchFlags.duration(flags.getOrDefault("warmup", "3s"));

        RbacPolicy policy = policy(roles, namespaces);
        List<AuthorizationAttributes> requests = requests(roles, namespaces, 4096);
        measure(
                "rules walked for every decision",
                RbacAuthorizer.walking(policy),
                requests,
                roles,
                namespaces,
                warmup,
                duration);
        measure(
                "decisions remembered per snapshot (the server's)",
                RbacAuthorizer.of(policy),
                requests,
                roles,
                namespaces,
                warmup,
                duration);
    }

    private static void measure(
            String what,
            RbacAuthorizer rbac,
            List<AuthorizationAttributes> requests,
            int roles,
            int namespaces,
            Duration warmup,
            Duration duration) {
        Authorizer chain = Authorizers.union(Authorizers.systemMasters(), rbac);
        long[] allowed = new long[1];

        run(chain, requests, warmup, new Histogram(), allowed);
        allowed[0] = 0;
        Histogram h = new Histogram();
        run(chain, requests, duration, h, allowed);

        System.out.printf(
                Locale.ROOT,
                "authorization decision, %d Roles + %d RoleBindings in %d namespaces + kube's"
                        + " bootstrap policy, union(system:masters, RBAC), 1 thread, %s%n"
                        + "  decisions %d (%.0f%% allowed)  p50 %.2f µs  p99 %.2f µs  p99.9 %.2f µs"
                        + "  max %.2f µs%n",
                roles,
                roles,
                namespaces,
                what,
                h.count(),
                100.0 * allowed[0] / Math.max(1, h.count()),
                h.percentile(0.50) / 1000.0,
                h.percentile(0.99) / 1000.0,
                h.percentile(0.999) / 1000.0,
                h.percentile(1.0) / 1000.0);
    }

    private static void run(
            Authorizer chain,
            List<AuthorizationAttributes> requests,
            Duration howLong,
            Histogram h,
            long[] allowed) {
        long end = System.nanoTime() + howLong.toNanos();
        int i = 0;
        while (System.nanoTime() < end) {
            for (int k = 0; k < 1024; k++) {
                AuthorizationAttributes a = requests.get(i++ & (requests.size() - 1));
                long t0 = System.nanoTime();
                boolean ok = chain.authorize(a).allowed();
                h.record(System.nanoTime() - t0);
                if (ok) {
                    allowed[0]++;
                }
            }
        }
    }

    /**
     * Role i lives in namespace i % namespaces and lets read a few resources; binding i grants it
     * to user-i and to group team-(i % 50), as a cluster of many tenants would.
     */
    static RbacPolicy policy(int roles, int namespaces) {
        List<RbacRole> roleList = new ArrayList<>();
        List<RbacBinding> bindings = new ArrayList<>();
        for (int i = 0; i < roles; i++) {
            String ns = "ns-" + (i % namespaces);
            roleList.add(
                    RbacRole.namespaced(
                            ns,
                            "role-" + i,
                            List.of(
                                    PolicyRule.resources(
                                            List.of("get", "list", "watch"),
                                            List.of(""),
                                            List.of("pods", "pods/log", "configmaps"),
                                            List.of()),
                                    PolicyRule.resources(
                                            List.of("get", "update"),
                                            List.of("apps"),
                                            List.of("deployments", "deployments/scale"),
                                            List.of("app-" + i)))));
            bindings.add(
                    new RbacBinding(
                            ns,
                            "binding-" + i,
                            new RoleRef(RoleRef.ROLE, "role-" + i),
                            List.of(Subject.user("user-" + i), Subject.group("team-" + (i % 50)))));
        }
        BootstrapPolicy boot = BootstrapPolicy.defaults();
        RbacPolicy bootstrap = boot.toRbacPolicy();
        List<RbacRole> clusterRoles = new ArrayList<>();
        boot.clusterRoles()
                .forEach(
                        o ->
                                clusterRoles.add(
                                        bootstrap.clusterRole(
                                                o.path("metadata").path("name").asText())));
        List<RbacBinding> clusterBindings =
                boot.clusterRoleBindings().stream().map(RbacBinding::fromJson).toList();
        return RbacPolicy.of(roleList, clusterRoles, bindings, clusterBindings);
    }

    /**
     * A power-of-two list of requests: a third allowed gets, a third group lists, a third denied.
     */
    static List<AuthorizationAttributes> requests(int roles, int namespaces, int count) {
        SplittableRandom r = new SplittableRandom(25);
        List<AuthorizationAttributes> out = new ArrayList<>(count);
        for (int k = 0; k < count; k++) {
            int i = r.nextInt(roles);
            String ns = "ns-" + (i % namespaces);
            UserInfo user =
                    UserInfo.of("user-" + i, List.of("team-" + (i % 50), UserInfo.AUTHENTICATED));
            out.add(
                    switch (k % 3) {
                        case 0 ->
                                AuthorizationAttributes.resource(
                                        user, "get", ns, "", "v1", "pods", "log", "p-" + k);
                        case 1 ->
                                AuthorizationAttributes.resource(
                                        user, "list", ns, "", "v1", "configmaps", "", "");
                        default ->
                                AuthorizationAttributes.resource(
                                        user, "delete", ns, "", "v1", "secrets", "", "s-" + k);
                    });
        }
        return out;
    }
}
