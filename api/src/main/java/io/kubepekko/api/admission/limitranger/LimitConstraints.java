package io.kubepekko.api.admission.limitranger;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * LimitRanger's checks of one resource against one bound, with kube's messages and arithmetic:
 * values compared in thousandths when none of them is too large for that ({@code
 * requestLimitEnforcedValues}), else in units; a missing request or limit reads as zero.
 */
final class LimitConstraints {
    private LimitConstraints() {}

    /** {@code minConstraint}: a request, at least the minimum, and a limit (if any) as well. */
    static Optional<String> min(
            String limitType,
            String resource,
            Amount enforced,
            Map<String, Amount> requests,
            Map<String, Amount> limits) {
        Amount req = requests.get(resource);
        Amount lim = limits.get(resource);
        Values v = values(req, lim, enforced);
        if (req == null) {
            return missing("minimum", resource, limitType, enforced, "request");
        }
        if (v.request < v.enforced) {
            return beyond("minimum", resource, limitType, enforced, "request", req);
        }
        if (lim != null && v.limit < v.enforced) {
            return beyond("minimum", resource, limitType, enforced, "limit", lim);
        }
        return Optional.empty();
    }

    /** {@code maxConstraint}: a limit, at most the maximum, and a request (if any) as well. */
    static Optional<String> max(
            String limitType,
            String resource,
            Amount enforced,
            Map<String, Amount> requests,
            Map<String, Amount> limits) {
        Amount req = requests.get(resource);
        Amount lim = limits.get(resource);
        Values v = values(req, lim, enforced);
        if (lim == null) {
            return missing("maximum", resource, limitType, enforced, "limit");
        }
        if (v.limit > v.enforced) {
            return beyond("maximum", resource, limitType, enforced, "limit", lim);
        }
        if (req != null && v.request > v.enforced) {
            return beyond("maximum", resource, limitType, enforced, "request", req);
        }
        return Optional.empty();
    }

    /**
     * {@code maxRequestConstraint}, for a claim, whose limits are no user input: a request, at most
     * the maximum.
     */
    static Optional<String> maxRequest(
            String limitType, String resource, Amount enforced, Map<String, Amount> requests) {
        Amount req = requests.get(resource);
        Values v = values(req, null, enforced);
        if (req == null) {
            return missing("maximum", resource, limitType, enforced, "request");
        }
        if (v.request > v.enforced) {
            return beyond("maximum", resource, limitType, enforced, "request", req);
        }
        return Optional.empty();
    }

    /**
     * {@code limitRequestRatioConstraint}: a non-zero request and limit whose ratio is at most the
     * enforced one, in kube's floating point (the ratio shown with six decimals, as Go's {@code
     * %f}).
     */
    static Optional<String> ratio(
            String limitType,
            String resource,
            Amount enforced,
            Map<String, Amount> requests,
            Map<String, Amount> limits) {
        Amount req = requests.get(resource);
        Amount lim = limits.get(resource);
        Values v = values(req, lim, enforced);
        if (req == null || v.request == 0) {
            return Optional.of(
                    String.format(
                            "%s max limit to request ratio per %s is %s, but no request is specified or request is 0",
                            resource, limitType, enforced));
        }
        if (lim == null || v.limit == 0) {
            return Optional.of(
                    String.format(
                            "%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0",
                            resource, limitType, enforced));
        }
        double observed = (double) v.limit / (double) v.request;
        double shown = observed;
        double allowed = enforced.value();
        if (enforced.value() <= Amount.MAX_MILLI_VALUE) {
            observed = observed * 1000;
            allowed = enforced.milliValue();
        }
        if (observed > allowed) {
            return Optional.of(
                    String.format(
                            Locale.ROOT,
                            "%s max limit to request ratio per %s is %s, but provided ratio is %f",
                            resource,
                            limitType,
                            enforced,
                            shown));
        }
        return Optional.empty();
    }

    /** The values compared: thousandths when all three fit, else units. */
    private record Values(long request, long limit, long enforced) {}

    private static Values values(Amount request, Amount limit, Amount enforced) {
        Amount req = request == null ? Amount.ZERO : request;
        Amount lim = limit == null ? Amount.ZERO : limit;
        if (req.value() <= Amount.MAX_MILLI_VALUE
                && lim.value() <= Amount.MAX_MILLI_VALUE
                && enforced.value() <= Amount.MAX_MILLI_VALUE) {
            return new Values(req.milliValue(), lim.milliValue(), enforced.milliValue());
        }
        return new Values(req.value(), lim.value(), enforced.value());
    }

    /** kube's message for a bound with nothing to check it against. */
    private static Optional<String> missing(
            String bound, String resource, String limitType, Amount enforced, String what) {
        return Optional.of(
                String.format(
                        "%s %s usage per %s is %s.  No %s is specified",
                        bound, resource, limitType, enforced, what));
    }

    /** kube's message for a request or limit past a bound. */
    private static Optional<String> beyond(
            String bound,
            String resource,
            String limitType,
            Amount enforced,
            String what,
            Amount actual) {
        return Optional.of(
                String.format(
                        "%s %s usage per %s is %s, but %s is %s",
                        bound, resource, limitType, enforced, what, actual));
    }
}
