package io.kubepekko.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The read benchmark's Markdown report: machine facts, the targets with our figure, etcd's, their
 * ratio and whether each is met ({@link ReadTargets}), then each phase in detail and anything that
 * went wrong ({@link ReadDetails}). This class writes the header (how the run was made) and puts
 * the parts in order.
 */
final class ReadReport {
    static final String OURS = "ours";
    static final String ETCD = "etcd";

    private final ReadOptions options;
    private final ReadResults results;
    private final StringBuilder md = new StringBuilder();

    ReadReport(ReadOptions options, ReadResults results) {
        this.options = options;
        this.results = results;
    }

    String markdown(String command, String loadAtStart) {
        md.append("## Read-path benchmark ")
                .append(
                        ZonedDateTime.now(ZoneOffset.UTC)
                                .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm'Z'")))
                .append("\n\n");
        md.append("- command: `").append(command).append("`\n");
        md.append("- machine: ").append(Report.machine(loadAtStart)).append('\n');
        md.append("- client and stores share this machine; Java ")
                .append(System.getProperty("java.version"))
                .append("; etcd: ")
                .append(results.etcdVersion)
                .append('\n');
        boolean lists = options.phases().contains(ReadOptions.Phase.LIST);
        boolean watches = options.phases().contains(ReadOptions.Phase.WATCH);
        boolean pods =
                lists
                        || watches
                        || options.phases().contains(ReadOptions.Phase.HEAP)
                        || options.phases().contains(ReadOptions.Phase.WARMSTART);
        if (pods) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "- pods: %,d bytes of JSON as sent, stored as %s bytes"
                                    + " on average by ours and %s by etcd (its values are the pods in stored form), over %d"
                                    + " namespaces, created over %d connections%n",
                            options.objectBytes(),
                            bytes(results.averageStoredBytes(OURS)),
                            bytes(results.averageStoredBytes(ETCD)),
                            options.namespaces(),
                            options.connections()));
        }
        if (lists) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "- lists: all namespaces; whole (consistent: ours"
                                    + " without resourceVersion, etcd linearizable; cached: ours resourceVersion=0, etcd"
                                    + " serializable) and paged by %d (the whole traversal timed); %s timed rounds after"
                                    + " at least %d warm-up rounds and %d s, the three modes interleaved in each%n",
                            options.pageSize(),
                            options.listReps() > 0
                                    ? Integer.toString(options.listReps())
                                    : "20 (5 above 10,000 pods)",
                            ReadBench.LIST_WARMUP_ROUNDS,
                            ReadBench.LIST_WARMUP.toSeconds()));
        }
        if (watches) {
            md.append(
                    String.format(
                            Locale.ROOT,
                            "- watch: ConfigMaps with %,d bytes of data; timed"
                                    + " from just before the create is sent until its ADDED event is read, after %d s of"
                                    + " unmeasured creates at %d connections with one watcher; 1 watcher over %d sequential"
                                    + " creates after %,d unmeasured ones; fan-out %s watchers over %d creates each%n",
                            options.objectBytes(),
                            ReadBench.WRITE_WARMUP.toSeconds(),
                            ReadBench.WRITE_WARMUP_CONNECTIONS,
                            options.watchWrites(),
                            options.watchWarmups(),
                            options.fanout(),
                            options.fanoutWrites()));
        }
        md.append('\n');

        new ReadTargets(options, results, md).append();
        new ReadDetails(options, results, md).append();
        md.append("\nRatio is ours ÷ etcd.\n");
        return md.toString();
    }

    static String ms(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.2f ms", value);
    }

    static String bytes(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%,.0f", value);
    }

    static String ratio(double ours, double etcd) {
        if (Double.isNaN(ours) || Double.isNaN(etcd) || etcd == 0) {
            return "—";
        }
        return String.format(Locale.ROOT, "%.2f×", ours / etcd);
    }
}
