# kyma-operator: build, test and run. `make help` lists the targets.
SHELL := /usr/bin/env bash
MVN ?= mvn
MVN_FLAGS ?= -B -ntp
JAR := manager/target/kyma-operator.jar
# Image for docker-build, docker-push and deploy.
IMG ?= controller:latest
KUBECTL ?= kubectl
# The cluster: the current kubeconfig context, else the embedded control plane (same rule as make run).
CLUSTER = $(KUBECTL) --kubeconfig "$$(hack/kubeconfig.sh)"

.DEFAULT_GOAL := help

##@ General

.PHONY: help
help: ## List the targets.
	@awk 'BEGIN {FS = ":.*##"; printf "Usage: make <target> [VAR=value]\n"} \
		/^[a-zA-Z_-]+:.*?##/ { printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2 } \
		/^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) }' $(MAKEFILE_LIST)

##@ Development

.PHONY: manifests
manifests: ## Regenerate the CRDs in config/crd/bases from the classes of the api module.
	$(MVN) $(MVN_FLAGS) -q -pl api -am process-test-classes -Dcrd.bases=$(CURDIR)/config/crd/bases

.PHONY: build
build: ## Build the manager jar (manager/target/kyma-operator.jar) without running tests.
	$(MVN) $(MVN_FLAGS) -q install -DskipTests

$(JAR):
	$(MAKE) build

.PHONY: control-plane
control-plane: ## Install the embedded control plane (kube-apiserver v1.20.2 built from Debian's sources, etcd).
	hack/control-plane.sh install

.PHONY: prometheus
prometheus: ## Install Debian's prometheus package (Prometheus and promtool) when it is missing.
	hack/prometheus.sh install

.PHONY: fmt
fmt: ## Format the Java sources (palantir-java-format, imports ordered); every build checks it.
	$(MVN) $(MVN_FLAGS) -q spotless:apply

.PHONY: unit
unit: ## Build and run the unit tests only (*Test; no cluster, no integration tests): the quick loop while editing.
	$(MVN) $(MVN_FLAGS) -q install -DskipITs

.PHONY: test
test: control-plane prometheus ## Run every unit and integration test, the alert-rule tests, then the README's commands (installs what is missing first); IT_FORKS=n test JVMs (one per core).
	hack/prometheus.sh test-rules
	$(MVN) $(MVN_FLAGS) verify $(if $(IT_FORKS),-Dit.forks=$(IT_FORKS))
	hack/readme-smoke.sh

.PHONY: monitoring
monitoring: control-plane prometheus ## Prometheus on 127.0.0.1:PROMETHEUS_PORT (9091) scraping an operator under a small load, with the alert rules; runs until Ctrl-C.
	$(MVN) $(MVN_FLAGS) -q install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl manager verify -Dit.test=PrometheusIT -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
		-Dfailsafe.failIfNoSpecifiedTests=false -Dmonitoring.hold=true -Dmonitoring.kymas=40 -Dmonitoring.unit=1s \
		-Dmonitoring.port=$(or $(PROMETHEUS_PORT),9091)

.PHONY: monitoring-docs
monitoring-docs: control-plane prometheus ## Redraw docs/monitoring/ (every dashboard panel) from a real Prometheus run.
	$(MVN) $(MVN_FLAGS) -q install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl manager verify -Dit.test=PrometheusIT -Dtest=NoSuch -Dsurefire.failIfNoSpecifiedTests=false \
		-Dfailsafe.failIfNoSpecifiedTests=false -Dmonitoring.render=$(CURDIR)/docs/monitoring -Dmonitoring.kymas=40 \
		-Dmonitoring.unit=1s

.PHONY: chaos
chaos: control-plane ## Every fault scenario at full size, one at a time (about 35 min); records docs/chaos/*.csv and the tables in docs/reliability.md.
	$(MVN) $(MVN_FLAGS) -q install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl manager verify -Dit.test='**/chaos/*IT' -Dtest=NoSuch \
		-Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
		-Dit.forks=1 -Dchaos.full=true -Dchaos.record=$(CURDIR)/docs/chaos
	$(MVN) $(MVN_FLAGS) -pl manager surefire:test -Dtest=ChaosDocTest -Dchaos.write=true

.PHONY: fuzz
fuzz: control-plane ## Hostile-tenant sequences against the operator, shrunk on failure: FUZZ_SEED (1), FUZZ_SEEDS (10), FUZZ_STEPS (200), FUZZ_DURATION (90s/30m/2h), FUZZ_SHRINK (30 tries), FUZZ_SETTLE_EACH (false: bursts), FUZZ_KEEP.
	$(MVN) $(MVN_FLAGS) -q install -DskipTests
	$(MVN) $(MVN_FLAGS) -pl manager verify -Dit.test=HostileTenantIT -Dtest=NoSuch \
		-Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false -Dit.forks=1 \
		-Dfuzz.seed=$(or $(FUZZ_SEED),1) -Dfuzz.seeds=$(or $(FUZZ_SEEDS),10) -Dfuzz.steps=$(or $(FUZZ_STEPS),200) \
		-Dfuzz.shrink=$(or $(FUZZ_SHRINK),30) -Dfuzz.settleEach=$(or $(FUZZ_SETTLE_EACH),false) $(if $(FUZZ_DURATION),-Dfuzz.duration=$(FUZZ_DURATION)) \
		$(if $(FUZZ_KEEP),-Dfuzz.keep=$(FUZZ_KEEP))

.PHONY: run
run: ## Run the operator in the foreground against the current cluster, or the embedded one (EMBEDDED=true).
	hack/run.sh

.PHONY: stop
stop: ## Stop the embedded control plane started by `make run`.
	hack/control-plane.sh down

.PHONY: sample-data
sample-data: ## Create N Kymas (default 100) in namespace pb and wait until all are Ready (UNIT=1, BATCHES=1, PAUSE=0).
	KUBECONFIG="$$(hack/kubeconfig.sh)" samples/sample-data.sh -n $(or $(N),100) -u $(or $(UNIT),1) -b $(or $(BATCHES),1) -p $(or $(PAUSE),0)

# OPERATOR_JAVA: the java that runs the operator (the image has Java 25); JVM_OPTIONS: its flags; PROFILE=true: JFR;
# HEAP_PROBES=true: weigh the live heap during the load (full collections: not a deployment's RSS); AFTER_BURST: how
# long the operator idles after the burst before rss_after_burst_mb is read (2m).
BENCH_FLAGS = $(if $(KUBECONFIG),--kubeconfig $(KUBECONFIG)) $(if $(OUT),--out $(OUT)) \
	$(if $(OPERATOR_JAVA),--java $(OPERATOR_JAVA)) $(if $(JVM_OPTIONS),--jvm-options "$(JVM_OPTIONS)") \
	$(if $(JVM_EXTRA),--jvm-extra "$(JVM_EXTRA)") $(if $(ARRIVAL_RATE),--arrival-rate $(ARRIVAL_RATE)) \
	$(if $(filter true,$(PROFILE)),--profile) $(if $(SHARDS),--shards $(SHARDS)) \
	$(if $(filter true,$(HEAP_PROBES)),--heap-probes) $(if $(AFTER_BURST),--after-burst $(AFTER_BURST))

.PHONY: bench
bench: ## Scale benchmark: N Kymas (default 1000) at UNIT (default 1s), embedded control plane unless KUBECONFIG; OUT=dir, SHARDS=K replicas, OPERATOR_FLAGS.
	@test -f bench/target/kyma-bench.jar -a -f $(JAR) || $(MAKE) build
	java -jar bench/target/kyma-bench.jar --n $(or $(N),1000) --unit $(or $(UNIT),1s) $(BENCH_FLAGS) \
		$(if $(OPERATOR_FLAGS),-- $(OPERATOR_FLAGS))

.PHONY: bench-noisy-neighbour
bench-noisy-neighbour: ## Noisy neighbour: tenant A's N Kymas (default 1000) and 50 Runs on a job service answering in 5 s, then tenant B's one Kyma.
	@test -f bench/target/kyma-bench.jar -a -f $(JAR) || $(MAKE) build
	java -jar bench/target/kyma-bench.jar --n $(or $(N),1000) --unit $(or $(UNIT),1s) --noisy-neighbour $(BENCH_FLAGS) \
		$(if $(OPERATOR_FLAGS),-- $(OPERATOR_FLAGS))

.PHONY: bench-memory
bench-memory: ## Memory at the seed's scale: 4000 Kymas (76,000 objects), client QPS raised so it ends in about 30 min.
	@test -f bench/target/kyma-bench.jar -a -f $(JAR) || $(MAKE) build
	java -jar bench/target/kyma-bench.jar --n $(or $(N),4000) --unit $(or $(UNIT),1s) $(BENCH_FLAGS) -- --k8s-client-qps 500 --k8s-client-burst 500 --max-concurrent-reconciles 100

.PHONY: bench-serialization
bench-serialization: ## Microbenchmark of reading watch events and write answers, fabric8's mapping against ours; OUT=dir, QUICK=true.
	@test -f bench/target/kyma-bench.jar || $(MAKE) build
	java -cp bench/target/kyma-bench.jar io.kyma.operator.bench.MicroBench --java $(or $(OPERATOR_JAVA),java) \
		--out $(or $(OUT),target/bench/serialization) $(if $(filter true,$(QUICK)),--quick)

.PHONY: bench-charts
bench-charts: ## Draw the charts a kept run lacks from its data files and link them from its report; RUN=folder(s).
	@test -n "$(RUN)" || { echo "RUN=docs/bench/<run> names the run folder(s)" >&2; exit 2; }
	@test -f bench/target/kyma-bench.jar || $(MAKE) build
	java -cp bench/target/kyma-bench.jar io.kyma.operator.bench.RunCharts $(RUN)

.PHONY: remote-server
remote-server: ## Run the remote job service in the foreground (PORT=9090).
	@test -f remote-job-server/target/remote-job-server.jar || $(MAKE) build
	java -jar remote-job-server/target/remote-job-server.jar --port $(or $(PORT),9090)

##@ Deployment

.PHONY: install
install: ## Install the CRDs into the cluster.
	$(CLUSTER) apply --server-side --force-conflicts -k config/crd

.PHONY: uninstall
uninstall: ## Delete every Kyma, HelmComponent and Run while the operator runs, then the CRDs (TIMEOUT=120, FORCE=true).
	hack/remove.sh uninstall

.PHONY: build-installer
build-installer: ## Write dist/install.yaml (CRDs, RBAC, Deployment with image IMG), dist/pdb.yaml and dist/monitoring.yaml.
	hack/installer.sh $(IMG)

.PHONY: deploy
deploy: ## Deploy the operator with image IMG into kyma-operator-system (CRDs, RBAC, manager, monitoring).
	hack/render.sh $(IMG) | $(CLUSTER) apply --server-side --force-conflicts -f -

.PHONY: undeploy
undeploy: ## Delete the custom resources while the operator runs, then the operator, then the CRDs (TIMEOUT, FORCE).
	hack/remove.sh undeploy $(IMG)

.PHONY: docker-build
docker-build: ## Build the container image IMG (needs a Docker engine).
	@docker info >/dev/null 2>&1 || { echo "docker-build needs a Docker engine and none answers here (a docker client alone is not enough); the image layout is built by 'make build' in manager/target/image/" >&2; exit 1; }
	docker build --build-arg COMMIT="$$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)" -t $(IMG) .

.PHONY: docker-push
docker-push: ## Push the container image IMG.
	@docker info >/dev/null 2>&1 || { echo "docker-push needs a Docker engine and none answers here (a docker client alone is not enough)" >&2; exit 1; }
	docker push $(IMG)
