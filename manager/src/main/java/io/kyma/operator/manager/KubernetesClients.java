package io.kyma.operator.manager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.kyma.operator.api.HelmComponent;
import io.kyma.operator.api.Kyma;
import io.kyma.operator.api.Run;
import io.kyma.operator.manager.config.ClientSettings;
import io.kyma.operator.manager.limits.ClientRateLimiter;
import io.kyma.operator.manager.limits.FairTokenQueue;
import io.kyma.operator.manager.limits.RetryAfter;
import io.kyma.operator.manager.metrics.InformerTraffic;
import io.kyma.operator.manager.metrics.OperatorMetrics;
import io.kyma.operator.manager.metrics.RestClientMetrics;
import io.kyma.operator.manager.watch.OnePassSerialization;

/** Builds the one client the manager shares between its controllers. */
public final class KubernetesClients {
    private KubernetesClients() {}

    /** Where the API server is: {@code --kubeconfig}, else fabric8's defaults ($KUBECONFIG, ~/.kube/config, in-cluster). */
    public static Config clientConfig(ClientSettings settings) {
        return settings.kubeconfig().map(KubernetesClients::fromFile).orElseGet(() -> Config.autoConfigure(null));
    }

    /**
     * A client whose every request passes the QPS/burst limiter (unless turned off) and is measured, whose every call
     * ends within {@link ClientSettings#callBound()} (the request timeout and the retries are set on
     * {@code clientConfig}, whatever the kubeconfig or fabric8's environment said), and whose retries, if it makes
     * any, wait as long as the API server's Retry-After asks.
     */
    public static KubernetesClient create(
            Config clientConfig,
            ClientSettings settings,
            OperatorMetrics metrics,
            List<Interceptor> extraInterceptors) {
        clientConfig.setRequestTimeout((int) settings.requestTimeout().toMillis());
        clientConfig.setRequestRetryBackoffLimit(settings.retries());
        clientConfig.setRequestRetryBackoffInterval((int) ClientSettings.FIRST_BACKOFF.toMillis());
        return new KubernetesClientBuilder()
                .withConfig(clientConfig)
                .withKubernetesSerialization(
                        new OnePassSerialization(List.of(Kyma.class, HelmComponent.class, Run.class)))
                .withHttpClientFactory(new JdkHttpClientFactory())
                .withHttpClientBuilderConsumer(builder -> {
                    if (settings.qps() > 0) {
                        builder.addOrReplaceInterceptor(
                                ClientRateLimiter.NAME,
                                new ClientRateLimiter(
                                        new FairTokenQueue(settings.qps(), settings.burst(), Clock.systemUTC()),
                                        Clock.systemUTC(),
                                        metrics.restRateLimiterDuration()::record));
                    }
                    builder.addOrReplaceInterceptor(RestClientMetrics.NAME, new RestClientMetrics(metrics));
                    builder.addOrReplaceInterceptor(
                            InformerTraffic.NAME, new InformerTraffic(metrics, Clock.systemUTC()));
                    if (settings.retries() > 0) {
                        // it holds every failed answer back, the last one too: only worth it when a retry follows
                        builder.addOrReplaceInterceptor(RetryAfter.NAME, new RetryAfter(Clock.systemUTC()));
                    }
                    for (Interceptor extra : extraInterceptors) {
                        builder.addOrReplaceInterceptor(extra.getClass().getName(), extra);
                    }
                })
                .build();
    }

    private static Config fromFile(String path) {
        try {
            Path file = Path.of(path);
            return Config.fromKubeconfig(
                    null, Files.readString(file), file.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read --kubeconfig " + path, e);
        }
    }
}
