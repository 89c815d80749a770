package io.kubepekko.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Creates pods {@code from .. to-1} of a {@link PodFixture} over many connections and checks every
 * answer. A failed create is retried once, one at a time, so that a transient failure does not
 * spoil a 100,000-object run; every failure, retried or not, is kept for the report, because a
 * create that should have succeeded is itself a finding.
 */
final class Seeder {

    /** What seeding did; {@code storedBytes} sums the stored objects' JSON sizes. */
    record Outcome(
            String store,
            long created,
            long elapsedNanos,
            long storedBytes,
            Map<String, Long> failures,
            List<String> samples) {
        double rate() {
            return elapsedNanos == 0 ? 0 : created * 1e9 / elapsedNanos;
        }

        long failed() {
            return failures.values().stream().mapToLong(Long::longValue).sum();
        }

        String summary() {
            return String.format(
                    Locale.ROOT,
                    "%s: %,d pods in %.1f s (%,.0f/s)%s",
                    store,
                    created,
                    elapsedNanos / 1e9,
                    rate(),
                    failures.isEmpty() ? "" : ", failures " + failures);
        }
    }

    private static final int SAMPLES = 3;

    private Seeder() {}

    static Outcome create(ReadStore store, PodFixture fixture, long from, long to, int connections)
            throws IOException, InterruptedException {
        AtomicLong next = new AtomicLong(from);
        AtomicLong stored = new AtomicLong();
        Map<String, Long> failures = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> samples = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> failed = new ConcurrentLinkedQueue<>();
        long t0 = System.nanoTime();
        Workers.run(
                connections,
                Workers.Budget.ofCount(to - from),
                store::newConnection,
                (conn, worker, seq) -> {
                    long pod = next.getAndIncrement();
                    if (!attempt(store, fixture, conn, pod, stored, failures, samples)) {
                        failed.add(pod);
                    }
                    return true;
                });
        long elapsed = System.nanoTime() - t0;
        List<Long> lost = new ArrayList<>();
        try (HttpConn conn = store.newConnection()) {
            for (Long pod : failed) {
                if (!attempt(store, fixture, conn, pod, stored, failures, samples)) {
                    lost.add(pod);
                }
            }
        }
        Outcome outcome =
                new Outcome(
                        store.name(),
                        to - from - lost.size(),
                        elapsed,
                        stored.get(),
                        new TreeMap<>(failures),
                        List.copyOf(samples));
        System.err.println("seeded " + outcome.summary());
        if (!lost.isEmpty()) {
            throw new IOException(
                    store.name()
                            + ": "
                            + lost.size()
                            + " pods could not be created even on"
                            + " a retry (first: "
                            + PodFixture.name(lost.get(0))
                            + "); failures "
                            + failures
                            + "; e.g. "
                            + samples);
        }
        return outcome;
    }

    private static boolean attempt(
            ReadStore store,
            PodFixture fixture,
            HttpConn conn,
            long pod,
            AtomicLong stored,
            Map<String, Long> failures,
            ConcurrentLinkedQueue<String> samples) {
        String why;
        try {
            ReadStore.Created created = store.createPod(conn, fixture, pod);
            if (created.ok()) {
                stored.addAndGet(created.storedBytes());
                return true;
            }
            why = "HTTP " + created.status();
            if (samples.size() < SAMPLES) {
                samples.add(PodFixture.name(pod) + ": " + why + " " + created.error());
            }
        } catch (IOException e) {
            why = e.getClass().getSimpleName();
            if (samples.size() < SAMPLES) {
                samples.add(PodFixture.name(pod) + ": " + e);
            }
        }
        failures.merge(why, 1L, Long::sum);
        return false;
    }

    /** Creates the namespaces the fixture's pods are spread over (those missing). */
    static void createNamespaces(ReadStore store, int namespaces) throws IOException {
        try (HttpConn conn = store.newConnection()) {
            for (int i = 0; i < namespaces; i++) {
                if (!store.ensureNamespace(conn, PodFixture.namespace(i))) {
                    throw new IOException(
                            store.name()
                                    + ": could not create namespace "
                                    + PodFixture.namespace(i));
                }
            }
        }
    }

    /** A consistent list, which also proves the watch cache has caught up with every create. */
    static void expectItems(ReadStore store, long expected, int pageSize) throws IOException {
        try (HttpConn conn = store.newConnection()) {
            ReadStore.Listing listing =
                    store.listPods(conn, ReadStore.ListMode.CONSISTENT, pageSize, true);
            if (listing.items() != expected) {
                throw new IOException(
                        store.name() + " lists " + listing.items() + " pods, expected " + expected);
            }
        }
    }
}
