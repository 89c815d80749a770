package io.kubepekko.api.alloc;

import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;

/**
 * Node ports from one port range, as Kubernetes' port allocator hands them out: one number is held
 * once across the cluster whatever its protocol, a dynamic pick is random in the upper part of the
 * range ({@link OffsetScan}), and Kubernetes' error wording.
 */
public final class NodePortPool implements ValuePool {

    /** What Kubernetes' dry-run port allocation counts up from when the write chose no port yet. */
    private static final int DRY_RUN_BASE = 32768;

    private final String name;
    private final PortRange range;

    public NodePortPool(String name, PortRange range) {
        this.name = name;
        this.range = range;
    }

    public PortRange range() {
        return range;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String canonical(String value) {
        try {
            return Integer.toString(Integer.parseInt(value.trim()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A dry run does not check the range: Kubernetes' dry-run port operation only asks whether the
     * port is held.
     */
    @Override
    public Refusal outOfRange(String value, boolean dryRun) {
        String port = canonical(value);
        if (port != null && (dryRun || range.contains(Integer.parseInt(port)))) {
            return null;
        }
        return new Refusal(
                Refusal.Reason.OUT_OF_RANGE,
                "provided port is not in the valid range. The range of valid ports is " + range);
    }

    @Override
    public boolean reserved(String value) {
        return false;
    }

    @Override
    public String pick(Predicate<String> taken, RandomGenerator random) {
        OptionalLong ordinal =
                OffsetScan.pick(
                        range.size(),
                        OffsetScan.nodePortOffset(range.size()),
                        o -> taken.test(Long.toString(range.base() + o)),
                        random);
        return ordinal.isPresent() ? Long.toString(range.base() + ordinal.getAsLong()) : null;
    }

    @Override
    public Refusal taken() {
        return new Refusal(Refusal.Reason.TAKEN, "provided port is already allocated");
    }

    @Override
    public Refusal full() {
        return new Refusal(Refusal.Reason.FULL, "range is full");
    }

    /**
     * One above the highest port this write already got, else 32769: Kubernetes' dry-run port
     * operation counts up from there without looking at what is held.
     */
    @Override
    public String dryRunValue(List<String> chosen) {
        int last =
                chosen.isEmpty()
                        ? DRY_RUN_BASE
                        : chosen.stream().mapToInt(Integer::parseInt).max().orElseThrow();
        return Integer.toString(last + 1);
    }

    @Override
    public boolean dryRunChecksTaken() {
        return true;
    }
}
