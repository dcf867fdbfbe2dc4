package io.kyma.operator.run;

import java.math.BigInteger;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where Runs may point (the operator's {@code --remote-server-allow}): a comma-separated list of patterns, each a host
 * name ({@code jobs.example.com}), a wildcard for the names below a domain ({@code *.example.com}), an IP address, or
 * a CIDR range ({@code 10.0.0.0/8}, {@code fd00::/8}). An empty list allows every server but those
 * {@link ServerAddresses} denies by default (loopback, link-local, the operator's and the API server's addresses).
 * <p>
 * A name matches a name pattern as written (case-insensitively). An IP pattern or range matches a URL whose host is an
 * address in it, or a name whose every address, resolved just before each call, is in it. Only an address or range
 * lifts the default denial: {@code localhost} does not allow 127.0.0.1, {@code 127.0.0.1} does.
 */
public final class ServerAllowList {
    private static final Pattern NAME =
            Pattern.compile("(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    private final List<String> names;
    private final List<Range> ranges;
    private final String text;

    private ServerAllowList(List<String> names, List<Range> ranges, String text) {
        this.names = names;
        this.ranges = ranges;
        this.text = text;
    }

    /** @throws IllegalArgumentException naming the pattern that is neither a name, a wildcard, an address nor a range */
    public static ServerAllowList parse(String text) {
        List<String> names = new ArrayList<>();
        List<Range> ranges = new ArrayList<>();
        for (String raw : text.split(",")) {
            String pattern = raw.trim().toLowerCase(Locale.ROOT);
            if (pattern.isEmpty()) {
                continue;
            }
            if (pattern.contains(":") || pattern.contains("/") || pattern.matches("[0-9.]+")) {
                ranges.add(Range.parse(pattern));
            } else if (NAME.matcher(pattern).matches() && pattern.length() <= 253) {
                names.add(pattern);
            } else {
                throw new IllegalArgumentException(
                        "'" + raw.trim() + "' is not a host name, *.domain, IP address or CIDR range");
            }
        }
        return new ServerAllowList(
                List.copyOf(names),
                List.copyOf(ranges),
                String.join(",", text.trim().split("\\s*,\\s*")));
    }

    public boolean allowsAll() {
        return names.isEmpty() && ranges.isEmpty();
    }

    /**
     * Whether a Run may name {@code server}, as far as can be told without resolving a name: an address literal is
     * checked as {@link ServerAddresses} would check it (without the operator's own addresses, which it checks at
     * each call), a name against the name patterns; a name the patterns do not list may still pass by its addresses
     * when the list has ranges, which is decided at each call.
     */
    public boolean allows(JobServerUrl server) {
        if (!server.hostIsName()) { // an address, read without a name server
            return new ServerAddresses(this, Optional.empty(), Set.of())
                    .allows(server, JobServerUrl.address(server.host()));
        }
        return allowsAll() || !ranges.isEmpty() || matchesName(server);
    }

    /** Whether a name pattern lists the server's host (an address is never listed by name). */
    boolean matchesName(JobServerUrl server) {
        String name = server.host().toLowerCase(Locale.ROOT);
        return server.hostIsName() && names.stream().anyMatch(pattern -> matchesName(pattern, name));
    }

    /** Whether an address or range of the list holds {@code address}: the only way to allow a denied address. */
    boolean listsAddress(InetAddress address) {
        return ranges.stream().anyMatch(range -> range.contains(address));
    }

    private static boolean matchesName(String pattern, String host) {
        return pattern.startsWith("*.") ? host.endsWith(pattern.substring(1)) : host.equals(pattern);
    }

    @Override
    public String toString() {
        return text;
    }

    /** An address range: the first {@code bits} bits of {@code network}. */
    private record Range(byte[] network, int bits) {
        static Range parse(String pattern) {
            int slash = pattern.indexOf('/');
            String address = slash < 0 ? pattern : pattern.substring(0, slash);
            byte[] bytes;
            try {
                bytes = JobServerUrl.address(address).getAddress();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + pattern + "' is not an IP address or CIDR range");
            }
            int bits;
            try {
                bits = slash < 0 ? bytes.length * 8 : Integer.parseInt(pattern.substring(slash + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + pattern + "' has no valid prefix length");
            }
            if (bits < 0 || bits > bytes.length * 8) {
                throw new IllegalArgumentException(
                        "'" + pattern + "': the prefix length must be 0 to " + bytes.length * 8);
            }
            return new Range(bytes, bits);
        }

        boolean contains(InetAddress address) {
            byte[] other = address.getAddress();
            if (other.length != network.length) {
                return false;
            }
            int drop = network.length * 8 - bits;
            return new BigInteger(1, other).shiftRight(drop).equals(new BigInteger(1, network).shiftRight(drop));
        }
    }
}
