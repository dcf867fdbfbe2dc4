package io.kyma.operator.manager;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;

/**
 * What the manager checks against the API server before anything starts.
 *
 * @param leases whether it needs Leases (leader election or shards)
 * @param crdCheck {@code fail}, {@code warn} or {@code off}: what an installed CRD older than this version's does
 */
record StartupChecks(boolean leases, String crdCheck) {
    /**
     * @throws ServedApis.MissingApiException when the API server lacks an API the manager needs
     * @throws InstalledCrds.StaleCrdException when an installed CRD is older than this version's and
     *     {@code crdCheck} is {@code fail}
     */
    void run(KubernetesClient client, Operator operator) {
        ServedApis.require(client, operator, leases);
        if (!crdCheck.equals("off")) {
            InstalledCrds.require(client, operator, crdCheck.equals("fail"));
        }
    }
}
