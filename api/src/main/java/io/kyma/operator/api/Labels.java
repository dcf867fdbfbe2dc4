package io.kyma.operator.api;

/** Labels the operator puts on the objects it creates. */
public final class Labels {
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "kyma-operator";
    public static final String KYMA = "kyma-project.io/kyma";
    public static final String MODULE = "kyma-project.io/module";
    /**
     * The shard (a number from 0) whose operator replica reconciles the object, when the operator runs sharded. A Kyma
     * and a Run get it from a hash of their namespace and name, a HelmComponent from its Kyma's.
     */
    public static final String SHARD = "kyma-project.io/shard";
    /**
     * Set while an object is handed from one live shard to another: {@code requested} by the replica that moves it,
     * {@code drained} by the replica of its shard once that replica has stopped reconciling it. Only then does its shard
     * label change, so that two replicas never reconcile it at once.
     */
    public static final String SHARD_DRAIN = "kyma-project.io/shard-drain";
    /** The value of {@link #SHARD_DRAIN} by which the replica that moves an object asks for it. */
    public static final String SHARD_DRAIN_REQUESTED_VALUE = "requested";
    /** The value of {@link #SHARD_DRAIN} by which the replica of the object's shard says it stopped. */
    public static final String SHARD_DRAIN_DRAINED_VALUE = "drained";

    private Labels() {}
}
