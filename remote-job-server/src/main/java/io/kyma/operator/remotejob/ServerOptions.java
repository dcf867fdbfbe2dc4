package io.kyma.operator.remotejob;

import java.time.Duration;

/** Command-line options of the standalone job service. */
record ServerOptions(
        String host,
        int port,
        double errorRate,
        Duration latency,
        double garbageRate,
        Duration refuseFor,
        boolean help) {
    static final String USAGE = """
            Usage: java -jar remote-job-server.jar [options]
              --host HOST            address to listen on (default 127.0.0.1)
              --port PORT            port to listen on (default 9090)
              --error-rate R         fraction of job requests answered with 503 (default 0)
              --latency-ms N         milliseconds added to every job answer (default 0)
              --garbage-rate R       fraction of job requests answered with a body that is not JSON (default 0)
              --refuse-for-ms N      refuse connections for the first N milliseconds (default 0)
            Jobs: POST /jobs {name, params, idempotencyKey}; GET and DELETE /jobs/{id}.
            Job params: durationSeconds or duration (default 30s), fail=true, linesPerSecond (default 1),
              reject=<message> (the job is refused with 422).
            Admin: GET/POST /admin/faults {errorRate, latencyMillis, garbageRate}; GET /admin/stats;
              POST /admin/refuse?seconds=N.
            """;

    static ServerOptions parse(String[] args) {
        String host = "127.0.0.1";
        int port = 9090;
        double errorRate = 0;
        long latency = 0;
        double garbageRate = 0;
        long refuseFor = 0;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--help") || arg.equals("-h")) {
                return new ServerOptions(host, port, 0, Duration.ZERO, 0, Duration.ZERO, true);
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(arg + " needs a value");
            }
            String value = args[++i];
            try {
                switch (arg) {
                    case "--host" -> host = value;
                    case "--port" -> port = Integer.parseInt(value);
                    case "--error-rate" -> errorRate = Double.parseDouble(value);
                    case "--latency-ms" -> latency = Long.parseLong(value);
                    case "--garbage-rate" -> garbageRate = Double.parseDouble(value);
                    case "--refuse-for-ms" -> refuseFor = Long.parseLong(value);
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("invalid value '" + value + "' for " + arg);
            }
        }
        if (port < 0
                || port > 65535
                || latency < 0
                || refuseFor < 0
                || !(errorRate >= 0 && errorRate <= 1)
                || !(garbageRate >= 0 && garbageRate <= 1)) {
            throw new IllegalArgumentException("out of range: ports 0-65535, rates 0-1, times >= 0");
        }
        return new ServerOptions(
                host, port, errorRate, Duration.ofMillis(latency), garbageRate, Duration.ofMillis(refuseFor), false);
    }
}
