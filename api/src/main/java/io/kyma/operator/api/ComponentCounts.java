package io.kyma.operator.api;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/** How many of a Kyma's components there are, and how many are in each state. */
public class ComponentCounts {
    /**
     * The most any count may say: a Kyma has at most 100 modules. Anyone who may write the status could write more;
     * the schema refuses it, and a count is read as a long, so a value written before the bound cannot make the
     * status unreadable.
     */
    static final long MOST = 100;

    @JsonPropertyDescription("Number of components the spec asks for.")
    @Min(0)
    @Max(MOST)
    private long total;

    @JsonPropertyDescription("Number of components in state success.")
    @Min(0)
    @Max(MOST)
    private long ready;

    @Min(0)
    @Max(MOST)
    private long pending;

    @Min(0)
    @Max(MOST)
    private long started;

    @Min(0)
    @Max(MOST)
    private long failing;

    @Min(0)
    @Max(MOST)
    private long retrying;

    @Min(0)
    @Max(MOST)
    private long success;

    /** A copy with each count within the schema's bounds, 0 to {@value #MOST}. */
    public ComponentCounts bounded() {
        ComponentCounts copy = new ComponentCounts();
        copy.setTotal(bound(total));
        copy.setReady(bound(ready));
        copy.setPending(bound(pending));
        copy.setStarted(bound(started));
        copy.setFailing(bound(failing));
        copy.setRetrying(bound(retrying));
        copy.setSuccess(bound(success));
        return copy;
    }

    private static long bound(long count) {
        return Math.max(0, Math.min(MOST, count));
    }

    public long getTotal() {
        return total;
    }

    public void setTotal(long total) {
        this.total = total;
    }

    public long getReady() {
        return ready;
    }

    public void setReady(long ready) {
        this.ready = ready;
    }

    public long getPending() {
        return pending;
    }

    public void setPending(long pending) {
        this.pending = pending;
    }

    public long getStarted() {
        return started;
    }

    public void setStarted(long started) {
        this.started = started;
    }

    public long getFailing() {
        return failing;
    }

    public void setFailing(long failing) {
        this.failing = failing;
    }

    public long getRetrying() {
        return retrying;
    }

    public void setRetrying(long retrying) {
        this.retrying = retrying;
    }

    public long getSuccess() {
        return success;
    }

    public void setSuccess(long success) {
        this.success = success;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComponentCounts c
                && total == c.total
                && ready == c.ready
                && pending == c.pending
                && started == c.started
                && failing == c.failing
                && retrying == c.retrying
                && success == c.success;
    }

    @Override
    public int hashCode() {
        return Objects.hash(total, ready, pending, started, failing, retrying, success);
    }

    @Override
    public String toString() {
        return "total=" + total + " ready=" + ready + " pending=" + pending + " started=" + started + " failing="
                + failing + " retrying=" + retrying + " success=" + success;
    }
}
