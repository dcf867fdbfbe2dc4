package io.kyma.operator.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SocketBacklogTest {
    // Rows as Linux writes them: the API server on port 0x8FC9 (36809), the operator on 56336 (0xDC10) and 56348
    // (0xDC1C); queues are tx:rx in hexadecimal, the inode is the tenth column.
    private static final String TCP6 = """
              sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0000000000000000FFFF00000100007F:DC10 0000000000000000FFFF00000100007F:8FC9 01 00000000:00000400 00:00000000 00000000     0        0 1001 1 0000000000000000 20 4 30 10 -1
               1: 0000000000000000FFFF00000100007F:DC1C 0000000000000000FFFF00000100007F:8FC9 01 000002A0:00015F00 00:00000000 00000000     0        0 1002 1 0000000000000000 20 4 30 10 -1
               2: 0000000000000000FFFF00000100007F:E000 0000000000000000FFFF00000100007F:8FC9 01 00000000:000FFFFF 00:00000000 00000000     0        0 9999 1 0000000000000000 20 4 30 10 -1
            """;
    private static final String TCP = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:8FC9 0100007F:DC10 01 00000000:00009A40 00:00000000 00000000     0        0 2001 1 0000000000000000 20 4 30 10 -1
               1: 0100007F:8FC9 0100007F:E000 01 00000000:000FFFFF 00:00000000 00000000     0        0 2002 1 0000000000000000 20 4 30 10 -1
               2: 0100007F:9000 0100007F:DC10 01 00000000:000FFFFF 00:00000000 00000000     0        0 2003 1 0000000000000000 20 4 30 10 -1
            """;

    @Test
    void readsPortsAndQueuesOfEachRow() {
        List<SocketBacklog.Socket> rows = SocketBacklog.parse(TCP6.lines());
        assertThat(rows).hasSize(3);
        assertThat(rows.get(1)).isEqualTo(new SocketBacklog.Socket(1002, 56348, 36809, 0x2A0, 0x15F00));
    }

    @Test
    void takesTheOperatorsSocketsAndTheApiServersEndsOfThemOnly() {
        List<SocketBacklog.Socket> rows = new ArrayList<>(SocketBacklog.parse(TCP6.lines()));
        rows.addAll(SocketBacklog.parse(TCP.lines()));
        Instant now = Instant.parse("2026-11-23T15:00:00Z");
        // inode 9999 (port 57344) is another process's connection to the API server: neither it nor the API server's
        // end of it counts, nor the API server's other port
        SocketBacklog.Sample sample = SocketBacklog.sample(now, rows, Set.of(1001L, 1002L), 36809);
        assertThat(sample).isEqualTo(new SocketBacklog.Sample(now, 0x15F00, 0x9A40));
    }

    @Test
    void findsTheSocketsAProcessHolds(@TempDir Path fds) throws Exception {
        Files.createSymbolicLink(fds.resolve("3"), Path.of("socket:[4242]"));
        Files.createSymbolicLink(fds.resolve("4"), Path.of("/dev/null"));
        Files.createSymbolicLink(fds.resolve("5"), Path.of("pipe:[77]"));
        assertThat(SocketBacklog.socketInodes(fds)).containsExactly(4242L);
    }

    @Test
    void theApiServersPortIsTheSchemesDefaultWhenTheUrlNamesNone() {
        assertThat(SocketBacklog.port(URI.create("https://127.0.0.1:36809"))).isEqualTo(36809);
        assertThat(SocketBacklog.port(URI.create("https://kubernetes.default.svc")))
                .isEqualTo(443);
        assertThat(SocketBacklog.port(URI.create("http://localhost"))).isEqualTo(80);
    }

    @Test
    void writesEverySampleAsSecondsSinceTheStart() {
        Instant start = Instant.parse("2026-11-23T15:00:00Z");
        assertThat(SocketBacklog.csv(List.of(new SocketBacklog.Sample(start.plusMillis(1250), 10, 20)), start))
                .isEqualTo("seconds,operator_unread_bytes,apiserver_unread_bytes\n1.25,10,20\n");
    }
}
