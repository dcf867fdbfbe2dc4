package io.kyma.operator.api;

/** Patterns shared by the schemas of the custom resources, so that the API server rejects bad input itself. */
public final class Validation {
    /** A DNS-1123 label: lower-case alphanumerics and '-', starting and ending with an alphanumeric. */
    public static final String DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
    /** Longest module name: leaves room for the owning Kyma's name in the HelmComponent's name. */
    public static final int MODULE_NAME_MAX = 40;
    /** A positive duration in Go's notation, such as 500ms, 5s, 1m30s or 1h. */
    public static final String GO_DURATION = "^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$";
    /** An absolute http or https URL. */
    public static final String HTTP_URL = "^https?://[^\\s/?#]+([/?#]\\S*)?$";
    /** A module version such as 1.2.3, v2 or 2.0.0-rc.1+build.5. */
    public static final String VERSION = "^[A-Za-z0-9][A-Za-z0-9._+-]*$";

    private Validation() {
    }
}
