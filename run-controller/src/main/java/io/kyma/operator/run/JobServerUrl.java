package io.kyma.operator.run;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The base URL of a job service, checked once so that every request built from it is one the JDK's HTTP client
 * accepts. The job API lives under the base's path: {@code http://h/api} means {@code http://h/api/jobs}.
 */
public final class JobServerUrl {
    /** An IPv4 address as the URL must write it: the one spelling, so that one service has one origin. */
    private static final Pattern DOTTED_QUAD =
            Pattern.compile("((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(?!$)|$)){4}");

    private final URI base;
    private final String origin;
    /** The address a job's start connected to, which its polls and cancels connect to as well; null for none. */
    private final InetAddress pinned;

    private JobServerUrl(URI base, InetAddress pinned) {
        this.base = base;
        this.origin = originOf(base);
        this.pinned = pinned;
    }

    /**
     * @throws IllegalArgumentException saying in a few words what is wrong with {@code text}, without echoing it
     */
    public static JobServerUrl parse(String text) {
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "not a valid URL: " + e.getReason() + (e.getIndex() >= 0 ? " at index " + e.getIndex() : ""));
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("the scheme must be http or https");
        }
        if (uri.getRawAuthority() == null || uri.getHost() == null) {
            throw new IllegalArgumentException("no valid host name (letters, digits, '-' and '.'; or an IP address)");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IllegalArgumentException("credentials in the URL are not allowed");
        }
        if (uri.getPort() > 65535 || uri.getPort() == 0) {
            throw new IllegalArgumentException("the port must be between 1 and 65535");
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("a base URL has no query or fragment");
        }
        if (uri.getHost().matches("[0-9.]+")
                && !DOTTED_QUAD.matcher(uri.getHost()).matches()) {
            throw new IllegalArgumentException("an IPv4 address is four numbers of 0 to 255, without leading zeros");
        }
        String path = uri.getRawPath() == null ? "" : uri.getRawPath().replaceFirst("/+$", "");
        try {
            return new JobServerUrl(new URI(scheme + "://" + uri.getRawAuthority() + path), null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("not a valid URL: " + e.getReason());
        }
    }

    /** The host as the URL names it: a name, or an IP address (IPv6 without brackets). */
    public String host() {
        String host = base.getHost();
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /**
     * The service a connection goes to, {@code scheme://host:port}: what a per-server limit counts by. An address is
     * written one way whatever way the URL writes it ({@code [::ffff:a60:505]} is {@code 10.96.5.5}; an IPv4 address
     * has one spelling only), so that spelling it differently gives no more calls to one service.
     */
    public String origin() {
        return origin;
    }

    private static String originOf(URI base) {
        int port = base.getPort() >= 0 ? base.getPort() : base.getScheme().equals("https") ? 443 : 80;
        String host = base.getHost().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            try {
                // an IPv6 literal (the URI checked it): read as one, no name is looked up
                host = hostText(InetAddress.getByName(host.substring(1, host.length() - 1)));
            } catch (UnknownHostException e) {
                // not read as an address: counted as written
            }
        }
        return base.getScheme() + "://" + host + ":" + port;
    }

    /** Whether the URL names its host by a name, not by an address (which the JDK reads without a name server). */
    boolean hostIsName() {
        String host = host();
        return !host.contains(":") && !DOTTED_QUAD.matcher(host).matches();
    }

    /** Whether the service is spoken to over plain HTTP. */
    boolean plainHttp() {
        return base.getScheme().equals("http");
    }

    /** The host and port as the URL names them: what a Host header says. */
    String authority() {
        return base.getRawAuthority();
    }

    /** The same service at {@code address} instead of its name. */
    JobServerUrl at(InetAddress address) {
        String host = hostText(address);
        String path = base.getRawPath() == null ? "" : base.getRawPath();
        return new JobServerUrl(
                URI.create(base.getScheme() + "://" + host + (base.getPort() >= 0 ? ":" + base.getPort() : "") + path),
                null);
    }

    /**
     * The same service, its connections made to {@code address} whatever its name resolves to later: a job started
     * there is followed there, so that a name moved to another service (a tenant's DNS) cannot point the job's polls
     * and cancels at someone else's job of the same id. Equal to this URL: it names the same service.
     */
    public JobServerUrl pinnedTo(InetAddress address) {
        return new JobServerUrl(base, address);
    }

    /** The address connections go to, when a start pinned them there. */
    public Optional<InetAddress> pinned() {
        return Optional.ofNullable(pinned);
    }

    /** An address as text, without an IPv6 scope. */
    static String literal(InetAddress address) {
        return address.getHostAddress().replaceFirst("%.*$", "");
    }

    /** An address as a URL's host writes it: IPv6 in brackets, without a scope. */
    private static String hostText(InetAddress address) {
        return address instanceof Inet6Address ? "[" + literal(address) + "]" : literal(address);
    }

    /**
     * An address written as one, read without a name server.
     *
     * @throws IllegalArgumentException for anything else, a name included
     */
    static InetAddress address(String text) {
        if (!DOTTED_QUAD.matcher(text).matches() && !(text.contains(":") && text.matches("[0-9A-Fa-f:.]{2,45}"))) {
            throw new IllegalArgumentException("not an IP address");
        }
        try {
            return InetAddress.getByName(text); // an address literal: no name is looked up
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address");
        }
    }

    /** Where jobs are started. */
    URI jobs() {
        return URI.create(base + "/jobs");
    }

    /** One job, with the query {@code query} (empty for none); an id that is not a job id is refused, not encoded. */
    URI job(String id, String query) {
        if (!JobAnswer.validId(id)) {
            throw new IllegalArgumentException("not a job id");
        }
        return URI.create(base + "/jobs/" + id + (query.isEmpty() ? "" : "?" + query));
    }

    @Override
    public String toString() {
        return base.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof JobServerUrl other && base.equals(other.base);
    }

    @Override
    public int hashCode() {
        return base.hashCode();
    }
}
