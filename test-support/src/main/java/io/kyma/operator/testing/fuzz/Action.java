package io.kyma.operator.testing.fuzz;

/**
 * One thing a generated run does to its world. An action whose target is missing when it runs does nothing: a shrunk
 * sequence leaves out the actions that made its targets, and must still run.
 *
 * @param <W> the world it acts on
 */
public interface Action<W> {
    void apply(W world) throws Exception;

    /** The action as one line a person can run again: a kubectl command, or a sentence for what kubectl cannot do. */
    String script();
}
