package io.kyma.operator.manager;

import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fabric8.kubernetes.client.Config;
import io.kyma.operator.common.GoDuration;
import io.kyma.operator.flags.CommandLine;
import io.kyma.operator.manager.config.ManagerConfig;
import io.kyma.operator.run.RemoteJobClient;

/** Entry point of the manager: reads the configuration, then runs every controller until SIGTERM. */
public final class Main {
    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {}

    public static void main(String[] args) {
        // Before any HTTP client exists: lets a job-service request carry the server's name as its Host header while
        // it connects to the address the operator checked (ServerAddresses).
        String restricted = System.getProperty("jdk.httpclient.allowRestrictedHeaders", "");
        // the JDK compares each comma-separated entry as it stands: " host" does not allow Host
        if (Arrays.stream(restricted.trim().split(",")).noneMatch(h -> h.equalsIgnoreCase("host"))) {
            System.setProperty(
                    "jdk.httpclient.allowRestrictedHeaders", restricted.isBlank() ? "host" : restricted + ",host");
        }
        // Before any HTTP client exists: what an answer's headers may take, counted in the answer budget.
        // (a value of 0 or less would mean no limit to the JDK, a larger one more than the budget counts)
        if (!within(System.getProperty("jdk.http.maxHeaderSize"), RemoteJobClient.MAX_HEADER_BYTES)) {
            System.setProperty("jdk.http.maxHeaderSize", String.valueOf(RemoteJobClient.MAX_HEADER_BYTES));
        }
        ManagerEndpoints.limitTheJdkServer();
        if (Arrays.asList(args).contains("--version")) {
            System.out.println(Version.current());
            return;
        }
        Optional<ManagerConfig> read = CommandLine.read(
                "kyma-operator", ManagerConfig.usage(), () -> ManagerConfig.parse(args, System.getenv()));
        if (read.isEmpty()) {
            return;
        }
        ManagerConfig config = read.get();
        Logging.configure(config.logLevel(), config.logFormat());
        LOG.info("Starting {} with {}", Version.current(), config.describe());

        Clock clock = Clock.systemUTC();
        Config clientConfig;
        try {
            clientConfig = KubernetesClients.clientConfig(config.client());
        } catch (RuntimeException e) {
            System.err.println("kyma-operator: " + e.getMessage()
                    + (e.getCause() == null ? "" : ": " + e.getCause().getMessage()));
            System.exit(2);
            return;
        }
        KymaOperator manager = new KymaOperator(
                config, clientConfig, clock, List.of(), StandardControllers.of(config, clock, clientConfig), true);
        ManagerEndpoints endpoints;
        try {
            endpoints = manager.serveEndpoints();
        } catch (RuntimeException e) {
            System.err.println("kyma-operator: " + e.getMessage());
            System.exit(2);
            return;
        }
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            LOG.info(
                                    "Stopping: letting in-flight reconciles finish (at most {})",
                                    GoDuration.format(KymaOperator.GRACEFUL_STOP));
                            manager.close();
                            endpoints.close();
                            LOG.info("Stopped");
                        },
                        "shutdown"));
        endpoints.metricsAddress().ifPresent(a -> LOG.info("Serving /metrics on {}", a));
        endpoints.probesAddress().ifPresent(a -> LOG.info("Serving /healthz and /readyz on {}", a));
        try {
            manager.start();
        } catch (ServedApis.MissingApiException | InstalledCrds.StaleCrdException e) {
            System.err.println("kyma-operator: " + e.getMessage());
            System.exit(2);
            return;
        }
        LOG.info(
                "Running against {}; every API call ends within {} ({} attempt(s) of at most {} each)",
                manager.client().getMasterUrl(),
                GoDuration.format(config.client().callBound()),
                config.client().retries() + 1,
                GoDuration.format(config.client().requestTimeout()));
    }

    /** Whether {@code value} is a whole number from 1 to {@code max}. */
    private static boolean within(String value, int max) {
        try {
            int n = Integer.parseInt(value == null ? "" : value.trim());
            return n >= 1 && n <= max;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
