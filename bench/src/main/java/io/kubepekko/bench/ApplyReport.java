package io.kubepekko.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The apply benchmark's Markdown report: machine and workload facts, the target (apply
 * throughput within 2× of update throughput, for 1 and 5 managers), every cell in detail, the first
 * failure of any cell that had one, and the ownership check.
 */
final class ApplyReport {

    /** "Within 2× of plain update throughput". */
    static final double TARGET_RATIO = 0.5;

    /** What a run measured and found, per cell in the order measured. */
    record Run(
            String server,
            Map<ApplyCell, Workers.Result> results,
            Map<ApplyCell, String> firstFailures,
            Map<ApplyCell, Integer> bodyBytes,
            List<OwnershipCheck> checks) {

        /** No request failed and every object is owned as expected. */
        boolean clean() {
            return results.values().stream().allMatch(r -> r.errors() == 0)
                    && checks.stream().allMatch(OwnershipCheck::ok);
        }
    }

    private final ApplyBench.Options options;
    private final Run run;

    ApplyReport(ApplyBench.Options options, Run run) {
        this.options = options;
        this.run = run;
    }

    String markdown(String command, String loadAtStart) {
        StringBuilder md = new StringBuilder();
        md.append("## Apply benchmark ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(Report.machine(loadAtStart)).append('\n');
        md.append("- client and server share this machine; Java ")
                .append(System.getProperty("java.version"))
                .append("; our server: ")
                .append(run.server())
                .append('\n');
        md.append("- object: ").append(objectFacts()).append('\n');
        md.append(
                String.format(
                        Locale.ROOT,
                        "- pools: %d Deployments per cell over %d namespaces; worker"
                                + " w of %d writes only objects i ≡ w (mod %d), in turn%n",
                        options.pool(),
                        options.namespaces(),
                        options.concurrency(),
                        options.concurrency()));
        md.append(
                String.format(
                        Locale.ROOT,
                        "- per cell: concurrency %d, %.1f s measured after %.1f s"
                                + " warm-up, after one unmeasured round of every cell; one HTTP/1.1 keep-alive"
                                + " connection per worker; every request changes one annotation to a new value%n%n",
                        options.concurrency(),
                        options.duration().toMillis() / 1000.0,
                        options.warmup().toMillis() / 1000.0));

        md.append("| figure | value | target | met? |\n|---|---:|---|---|\n");
        for (ApplyCell apply : List.of(ApplyCell.APPLY_ONE, ApplyCell.APPLY_FIVE)) {
            md.append("| apply ÷ update throughput, ")
                    .append(apply.label().substring("apply, ".length()))
                    .append(" | ")
                    .append(ratio(apply, ApplyCell.UPDATE))
                    .append(" | ≥ ")
                    .append(TARGET_RATIO)
                    .append("× (within 2×) | ")
                    .append(met(apply))
                    .append(" |\n");
        }

        md.append("\n| cell | request body | ops/s | p50 | p99 | ops/s ÷ update | errors |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|\n");
        run.results()
                .forEach(
                        (cell, r) ->
                                md.append(
                                        String.format(
                                                Locale.ROOT,
                                                "| %s | %,d bytes | %,.0f/s | %.2f ms | %.2f ms | %s | %d |%n",
                                                cell.label(),
                                                run.bodyBytes().get(cell),
                                                r.throughput(),
                                                r.p50Millis(),
                                                r.p99Millis(),
                                                ratio(cell, ApplyCell.UPDATE),
                                                r.errors())));

        if (!run.firstFailures().isEmpty()) {
            md.append("\nFirst failure per cell:\n\n");
            run.firstFailures()
                    .forEach(
                            (cell, text) ->
                                    md.append("- ")
                                            .append(cell.label())
                                            .append(": `")
                                            .append(text.replace('`', '\''))
                                            .append("`\n"));
        }
        md.append("\nmanagedFields of each cell's pool object 0 after the run:\n\n");
        for (OwnershipCheck check : run.checks()) {
            md.append("- ")
                    .append(check.cell().label())
                    .append(": ")
                    .append(
                            check.managers().isEmpty()
                                    ? "none"
                                    : String.join(", ", check.managers()))
                    .append(
                            check.ok()
                                    ? " (as expected)"
                                    : " — **not as expected**: " + check.problem())
                    .append('\n');
        }
        md.append(
                "\nLatency is per call, request written to response read. Compare ratios within one"
                        + " run: on a shared machine absolute figures move between runs.\n");
        return md.toString();
    }

    private static String objectFacts() {
        int whole = DeploymentFixture.leaves(DeploymentFixture.whole());
        StringBuilder parts = new StringBuilder();
        for (int k = 0; k < DeploymentFixture.MANAGERS; k++) {
            parts.append(k == 0 ? "" : k == DeploymentFixture.MANAGERS - 1 ? " and " : ", ")
                    .append(
                            DeploymentFixture.leaves(DeploymentFixture.part(k))
                                    - DeploymentFixture.IDENTITY_LEAVES);
        }
        return String.format(
                Locale.ROOT,
                "an apps/v1 Deployment of %d leaf fields (%d besides apiVersion,"
                        + " kind, name and namespace): labels, annotations, selector, strategy, and a pod template"
                        + " with two containers (image, ports, env, resources, probes); the five managers' parts"
                        + " hold %s of them (a part counts the name of each container it touches)",
                whole,
                whole - DeploymentFixture.IDENTITY_LEAVES,
                parts);
    }

    private String ratio(ApplyCell cell, ApplyCell base) {
        Workers.Result r = run.results().get(cell);
        Workers.Result b = run.results().get(base);
        if (r == null || b == null || b.throughput() == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", r.throughput() / b.throughput());
    }

    private String met(ApplyCell apply) {
        Workers.Result r = run.results().get(apply);
        Workers.Result b = run.results().get(ApplyCell.UPDATE);
        if (r == null || b == null || b.throughput() == 0) {
            return "n/a";
        }
        if (r.errors() + b.errors() > 0) {
            return "no (" + (r.errors() + b.errors()) + " errors)";
        }
        return r.throughput() / b.throughput() >= TARGET_RATIO ? "yes" : "**no**";
    }
}
