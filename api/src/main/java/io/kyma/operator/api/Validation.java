package io.kyma.operator.api;

/** Patterns shared by the schemas of the custom resources, so that the API server rejects bad input itself. */
public final class Validation {
    /** A DNS-1123 label: lower-case alphanumerics and '-', starting and ending with an alphanumeric. */
    public static final String DNS_LABEL = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
    /** A DNS-1123 subdomain, as object names are: DNS labels joined by dots. */
    public static final String DNS_SUBDOMAIN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
    /** Longest module name: leaves room for the owning Kyma's name in the HelmComponent's name. */
    public static final int MODULE_NAME_MAX = 40;
    /** A positive duration in Go's notation, such as 500ms, 5s, 1m30s or 1h. */
    public static final String GO_DURATION = "^([0-9]+(\\.[0-9]+)?(ns|us|ms|s|m|h))+$";
    /**
     * The base URL of a job service: http or https, a host name or an IP address (IPv6 in brackets), an optional port
     * and path, no credentials, query or fragment, only characters a URL may hold. Ports above 65535 and malformed
     * %-escapes pass the pattern; the Run controller reports those in the Run's status.
     */
    public static final String HTTP_URL = "^https?://([A-Za-z0-9]([-A-Za-z0-9.]*[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]+\\])"
            + "(:[0-9]{1,5})?(/[-A-Za-z0-9._~!$&'()*+,;=:@%/]*)?$";
    /** The longest duration text; no duration up to Go's maximum (about 292 years) needs more. */
    public static final int DURATION_MAX_LENGTH = 64;
    /** Longest Kyma name: it is a label value on each of its components, and those hold at most 63 characters. */
    public static final int KYMA_NAME_MAX = 63;
    /** The most parameters a Run's job may have, the longest value and the longest name (which the operator checks). */
    public static final int JOB_PARAMS_MAX = 64;

    public static final int JOB_PARAM_VALUE_MAX = 4096;
    public static final int JOB_PARAM_NAME_MAX = 253;
    /** A module version such as 1.2.3, v2 or 2.0.0-rc.1+build.5. */
    public static final String VERSION = "^[A-Za-z0-9][A-Za-z0-9._+-]*$";

    private Validation() {}
}
