package io.kyma.operator.api;

/** Labels the operator puts on the objects it creates. */
public final class Labels {
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    public static final String MANAGED_BY_VALUE = "kyma-operator";
    public static final String KYMA = "kyma-project.io/kyma";
    public static final String MODULE = "kyma-project.io/module";

    private Labels() {
    }
}
