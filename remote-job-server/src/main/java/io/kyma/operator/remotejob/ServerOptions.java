package io.kyma.operator.remotejob;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.kyma.operator.flags.Flag;
import io.kyma.operator.flags.FlagException;
import io.kyma.operator.flags.Flags;
import io.kyma.operator.flags.HelpRequested;
import io.kyma.operator.flags.Parsers;

/** Command-line options of the standalone job service. */
record ServerOptions(
        String host, int port, double errorRate, Duration latency, double garbageRate, Duration refuseFor) {
    private static final Flag<String> HOST = Flag.of("host", "127.0.0.1", "Address to listen on.", Parsers.text());
    private static final Flag<Integer> PORT =
            Flag.of("port", "9090", "Port to listen on (0 to 65535).", Parsers.integer(0, 65535));
    private static final Flag<Double> ERROR_RATE =
            Flag.of("error-rate", "0", "Fraction of job requests answered with 503 (0 to 1).", Parsers.number(0, 1));
    private static final Flag<Integer> LATENCY_MS = Flag.of(
            "latency-ms", "0", "Milliseconds added to every job answer.", Parsers.integer(0, Integer.MAX_VALUE));
    private static final Flag<Double> GARBAGE_RATE = Flag.of(
            "garbage-rate",
            "0",
            "Fraction of job requests answered with a body that is not JSON (0 to 1).",
            Parsers.number(0, 1));
    private static final Flag<Integer> REFUSE_FOR_MS = Flag.of(
            "refuse-for-ms",
            "0",
            "Refuse connections for the first this many milliseconds.",
            Parsers.integer(0, Integer.MAX_VALUE));
    static final Flags FLAGS = Flags.of(List.of(HOST, PORT, ERROR_RATE, LATENCY_MS, GARBAGE_RATE, REFUSE_FOR_MS));

    static final String USAGE = FLAGS.usage("Usage: java -jar remote-job-server.jar [flags]") + """

            Jobs: POST /jobs {name, params, idempotencyKey}; GET and DELETE /jobs/{id}.
            Job params: durationSeconds or duration (default 30s), fail=true, linesPerSecond (default 1),
              reject=<message> (the job is refused with 422).
            Admin: GET/POST /admin/faults {errorRate, latencyMillis, garbageRate}; GET /admin/stats;
              POST /admin/refuse?seconds=N.
            """;

    /**
     * @throws HelpRequested for {@code --help}
     * @throws FlagException for a bad flag, naming it
     */
    static ServerOptions parse(String[] args) {
        Flags.Values values = FLAGS.parse(args, Map.of());
        return new ServerOptions(
                values.get(HOST),
                values.get(PORT),
                values.get(ERROR_RATE),
                Duration.ofMillis(values.get(LATENCY_MS)),
                values.get(GARBAGE_RATE),
                Duration.ofMillis(values.get(REFUSE_FOR_MS)));
    }
}
