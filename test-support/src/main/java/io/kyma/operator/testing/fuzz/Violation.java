package io.kyma.operator.testing.fuzz;

/** One broken rule: the oracle that found it and what it saw. */
public record Violation(String oracle, String detail) {
    @Override
    public String toString() {
        return oracle + ": " + detail;
    }
}
