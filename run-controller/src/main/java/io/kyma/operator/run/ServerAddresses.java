package io.kyma.operator.run;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a Run's calls may connect, decided on the addresses a server's name resolves to, just before each call (so a
 * name that resolves elsewhere later is checked again). Denied unless {@code --remote-server-allow} lists them as IP
 * addresses or ranges:
 * <ul>
 * <li>loopback, link-local (cloud metadata at 169.254.169.254), unspecified and multicast addresses, and the metadata
 * addresses outside those ranges ({@code fd00:ec2::254}, {@code 100.100.100.200});</li>
 * <li>the operator's own addresses (its network interfaces: its metrics and probe ports) and the API server's.</li>
 * </ul>
 * Every address of a name must pass: a name that resolves to one public and one loopback address is refused. The job
 * service named by {@code --remote-server-url} is the administrator's own and never checked.
 */
public final class ServerAddresses {
    private static final List<InetAddress> METADATA =
            List.of(JobServerUrl.address("fd00:ec2::254"), JobServerUrl.address("100.100.100.200"));

    private final ServerAllowList allowList;
    private final Optional<JobServerUrl> defaultServer;
    private final Set<InetAddress> own;
    private final Resolver resolver;

    /** Resolves a host name to its addresses; blocks on a name server. */
    @FunctionalInterface
    interface Resolver {
        InetAddress[] resolve(String host) throws UnknownHostException;
    }

    /**
     * @param defaultServer the administrator's job service, never checked
     * @param own the operator's and the API server's addresses
     */
    public ServerAddresses(ServerAllowList allowList, Optional<JobServerUrl> defaultServer, Set<InetAddress> own) {
        this(allowList, defaultServer, own, InetAddress::getAllByName);
    }

    ServerAddresses(
            ServerAllowList allowList, Optional<JobServerUrl> defaultServer, Set<InetAddress> own, Resolver resolver) {
        this.allowList = allowList;
        this.defaultServer = defaultServer;
        this.own = Set.copyOf(own);
        this.resolver = resolver;
    }

    /** The addresses of this host's network interfaces, and those {@code hosts} resolve to now. */
    public static Set<InetAddress> ownAddresses(List<String> hosts) {
        Set<InetAddress> own = new HashSet<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                own.addAll(Collections.list(nic.getInetAddresses()).stream()
                        .map(ServerAddresses::plain)
                        .toList());
            }
        } catch (SocketException e) {
            // no interfaces to list: loopback is denied all the same
        }
        for (String host : hosts) {
            try {
                for (InetAddress address : InetAddress.getAllByName(host)) {
                    own.add(plain(address));
                }
            } catch (UnknownHostException e) {
                // a name that does not resolve cannot be connected to either
            }
        }
        return own;
    }

    /**
     * The address to connect to for {@code server}: the address a job's start connected to, when {@code server} is
     * pinned there; else its host resolved (this blocks: call it off the reconcile pool) and every address checked.
     *
     * @return empty for the default server, which is connected to by name
     * @throws RemoteJobException UNREACHABLE for a name that does not resolve, NOT_ALLOWED for an address refused
     */
    public Optional<InetAddress> check(JobServerUrl server) {
        if (server.pinned().isEmpty() && defaultServer.filter(server::equals).isPresent()) {
            return Optional.empty();
        }
        InetAddress[] addresses;
        try { // a pinned server, where the job's start connected, is checked again, and no name looked up
            addresses = server.pinned().isPresent()
                    ? new InetAddress[] {server.pinned().get()}
                    : resolver.resolve(server.host());
        } catch (UnknownHostException e) {
            throw RemoteJobException.unreachable();
        }
        for (InetAddress address : addresses) {
            if (!allows(server, plain(address))) {
                throw new RemoteJobException(RemoteJobException.Kind.NOT_ALLOWED, notAllowed(server));
            }
        }
        return Arrays.stream(addresses).findFirst();
    }

    /**
     * Whether {@link #check} would block on a name server for {@code server}: not for a pinned server, the default
     * server, nor a host written as an address, which are checked at once.
     */
    public boolean looksUp(JobServerUrl server) {
        if (server.pinned().isPresent() || defaultServer.filter(server::equals).isPresent()) {
            return false;
        }
        return server.hostIsName(); // an address literal, which Java reads without a name server, is checked at once
    }

    /** Whether a call to {@code server} may connect to {@code address}. */
    boolean allows(JobServerUrl server, InetAddress address) {
        if (allowList.listsAddress(address)) {
            return true;
        }
        if (special(address) || own.contains(address)) {
            return false;
        }
        return allowList.allowsAll() || allowList.matchesName(server);
    }

    static String notAllowed(JobServerUrl server) {
        return "spec.server: the host " + server.host() + " is not allowed by the operator's --remote-server-allow,"
                + " or resolves to an address the operator does not call";
    }

    private static boolean special(InetAddress address) {
        return address.isLoopbackAddress()
                || address.isLinkLocalAddress()
                || address.isAnyLocalAddress()
                || address.isMulticastAddress()
                || METADATA.contains(address);
    }

    /** An IPv6 address without its scope, so that it compares equal to the same address named elsewhere. */
    private static InetAddress plain(InetAddress address) {
        if (address instanceof Inet6Address v6 && v6.getScopeId() != 0) {
            try {
                return InetAddress.getByAddress(v6.getAddress());
            } catch (UnknownHostException e) {
                return address;
            }
        }
        return address;
    }
}
