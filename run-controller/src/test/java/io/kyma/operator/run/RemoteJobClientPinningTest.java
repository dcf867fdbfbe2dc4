package io.kyma.operator.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import com.sun.net.httpserver.HttpServer;

/**
 * A job is followed at the address its start connected to. A tenant who owns a name can point it at another job
 * service once the start is answered (its own service answering with the id of someone else's job): the polls and the
 * cancel still go to the tenant's own service, against real HTTP servers on two loopback addresses.
 */
class RemoteJobClientPinningTest {
    /** One timer for every client the tests make: the request timeouts. */
    private static final JobCalls.Timer ALARMS = JobCalls.timerThread();

    private final List<HttpServer> servers = new CopyOnWriteArrayList<>();
    private final List<String> heard = new CopyOnWriteArrayList<>();
    private volatile InetAddress resolvesTo;

    @AfterEach
    void stop() {
        servers.forEach(s -> s.stop(0));
    }

    private int serve(String address, int port, String state) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(address), port), 8);
        server.createContext("/", exchange -> {
            heard.add(address + " " + exchange.getRequestMethod() + " "
                    + exchange.getRequestURI().getPath() + " "
                    + exchange.getRequestHeaders().getFirst("Host"));
            byte[] body = ("{\"id\":\"victim-job\",\"state\":\"" + state + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        servers.add(server);
        return server.getAddress().getPort();
    }

    @Test
    void pollsAndCancelsGoWhereTheStartConnectedWhateverTheNameResolvesToLater() throws IOException {
        int port = serve("127.0.0.1", 0, "running"); // the tenant's own service
        serve("127.0.0.2", port, "succeeded"); // another team's service, on the same port of another address
        ServerAddresses addresses =
                new ServerAddresses(ServerAllowList.parse("127.0.0.0/8"), Optional.empty(), Set.of(), host ->
                        new InetAddress[] {resolvesTo});
        JobServerUrl url = JobServerUrl.parse("http://jobs.tenant.test:" + port);
        // timeouts that only a hang reaches: no answer here is meant to be late
        try (RemoteJobClient client =
                new RemoteJobClient(Duration.ofMinutes(1), Duration.ofMinutes(2), 64 * 1024, addresses, 2, ALARMS)) {
            resolvesTo = InetAddress.getByName("127.0.0.1");
            JobService.Start start = client.start(url, "build", Map.of(), "uid").join();
            assertThat(start.server()).isEqualTo(url);
            assertThat(start.server().pinned()).contains(InetAddress.getByName("127.0.0.1"));

            resolvesTo = InetAddress.getByName("127.0.0.2"); // the name now points at the other service
            assertThat(client.get(start.server(), start.id(), 0).join().state()).isEqualTo("running");
            client.cancel(start.server(), start.id()).join();
            assertThat(heard)
                    .allMatch(line -> line.startsWith("127.0.0.1 "))
                    .allMatch(line -> line.endsWith(" jobs.tenant.test:" + port))
                    .hasSize(3);

            assertThat(client.get(url, start.id(), 0).join().state())
                    .as("a call not pinned follows the name")
                    .isEqualTo("succeeded");
        }
    }
}
