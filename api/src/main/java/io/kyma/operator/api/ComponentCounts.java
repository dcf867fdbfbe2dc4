package io.kyma.operator.api;

import java.util.Objects;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** How many of a Kyma's components there are, and how many are in each state. */
public class ComponentCounts {
    @JsonPropertyDescription("Number of components the spec asks for.")
    private int total;
    @JsonPropertyDescription("Number of components in state success.")
    private int ready;
    private int pending;
    private int started;
    private int failing;
    private int retrying;
    private int success;

    public int getTotal() {
        return total;
    }

    public void setTotal(int total) {
        this.total = total;
    }

    public int getReady() {
        return ready;
    }

    public void setReady(int ready) {
        this.ready = ready;
    }

    public int getPending() {
        return pending;
    }

    public void setPending(int pending) {
        this.pending = pending;
    }

    public int getStarted() {
        return started;
    }

    public void setStarted(int started) {
        this.started = started;
    }

    public int getFailing() {
        return failing;
    }

    public void setFailing(int failing) {
        this.failing = failing;
    }

    public int getRetrying() {
        return retrying;
    }

    public void setRetrying(int retrying) {
        this.retrying = retrying;
    }

    public int getSuccess() {
        return success;
    }

    public void setSuccess(int success) {
        this.success = success;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ComponentCounts c && total == c.total && ready == c.ready && pending == c.pending
                && started == c.started && failing == c.failing && retrying == c.retrying && success == c.success;
    }

    @Override
    public int hashCode() {
        return Objects.hash(total, ready, pending, started, failing, retrying, success);
    }

    @Override
    public String toString() {
        return "total=" + total + " ready=" + ready + " pending=" + pending + " started=" + started
                + " failing=" + failing + " retrying=" + retrying + " success=" + success;
    }
}
