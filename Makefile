# Lambda builds for `sam build` (every function has Metadata: BuildMethod: makefile).
#
# sam build copies the CodeUri (this folder) to a scratch folder and runs `make build-<LogicalId>`
# there with ARTIFACTS_DIR set to the function's output folder. Each target hands the work to
# bin/build-function, which runs Maven and lays out classes at the root and jars in lib/.
#
# Without the sam CLI: `make build-all` builds all three into .aws-sam/manual/<LogicalId>, and
# `make check-artifacts` does that and then checks the layout, as CI would.

SHELL := /bin/bash

# The builds run Maven in one tree: never two at a time, even under `make -j`.
.NOTPARALLEL:

MANUAL_DIR := .aws-sam/manual

.PHONY: build-ProducerFunction build-WorkerFunction build-AggregatorFunction \
        build-all check-artifacts clean-artifacts

build-ProducerFunction:
	bash bin/build-function producer "$(ARTIFACTS_DIR)"

build-WorkerFunction:
	bash bin/build-function worker "$(ARTIFACTS_DIR)"

build-AggregatorFunction:
	bash bin/build-function aggregator "$(ARTIFACTS_DIR)"

build-all: clean-artifacts
	$(MAKE) --no-print-directory build-ProducerFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/ProducerFunction"
	$(MAKE) --no-print-directory build-WorkerFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/WorkerFunction"
	$(MAKE) --no-print-directory build-AggregatorFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/AggregatorFunction"

# Fails unless each folder holds its handler class at the root, common's jar and the Lambda
# libraries in lib/, and no test-only library (JUnit, Mockito, AssertJ) anywhere in lib/.
check-artifacts: build-all
	@set -euo pipefail; \
	check() { \
	  local id=$$1 handler=$$2 dir="$(MANUAL_DIR)/$$1" jar; \
	  if [ ! -f "$$dir/$$handler" ]; then echo "check-artifacts: $$id: $$handler is missing from $$dir" >&2; exit 1; fi; \
	  for jar in common aws-lambda-java-events; do \
	    if ! compgen -G "$$dir/lib/$$jar-*.jar" >/dev/null; then echo "check-artifacts: $$id: lib/$$jar-*.jar is missing" >&2; exit 1; fi; \
	  done; \
	  if compgen -G "$$dir/lib/*.jar" | grep -E '/(junit|mockito|assertj|opentest4j|apiguardian|byte-buddy)[^/]*\.jar$$' >&2; then \
	    echo "check-artifacts: $$id: test-only jars above are in lib/" >&2; exit 1; \
	  fi; \
	  echo "check-artifacts: $$id ok ($$(compgen -G "$$dir/lib/*.jar" | wc -l | tr -d ' ') jars in lib/)"; \
	}; \
	check ProducerFunction batchpipe/producer/ProducerHandler.class; \
	check WorkerFunction batchpipe/worker/WorkerHandler.class; \
	check AggregatorFunction batchpipe/aggregator/AggregatorHandler.class

clean-artifacts:
	rm -rf "$(MANUAL_DIR)"
