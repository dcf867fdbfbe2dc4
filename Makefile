# kyma-operator: build, test and run. `make help` lists the targets.
SHELL := /usr/bin/env bash
MVN ?= mvn
MVN_FLAGS ?= -B -ntp
JAR := manager/target/kyma-operator.jar
KUBECONFIG_EMBEDDED := .local/kubeconfig

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

.PHONY: test
test: control-plane ## Run every unit and integration test (installs what is missing first).
	$(MVN) $(MVN_FLAGS) verify

.PHONY: run
run: ## Run the operator in the foreground against the current cluster, or the embedded one (EMBEDDED=true).
	hack/run.sh

.PHONY: stop
stop: ## Stop the embedded control plane started by `make run`.
	hack/control-plane.sh down

.PHONY: remote-server
remote-server: ## Run the remote job service in the foreground (PORT=9090).
	@test -f remote-job-server/target/remote-job-server.jar || $(MAKE) build
	java -jar remote-job-server/target/remote-job-server.jar --port $(or $(PORT),9090)
