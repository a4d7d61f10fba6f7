# Lambda builds for `sam build` (every function has Metadata: BuildMethod: makefile).
#
# sam build copies the CodeUri (this folder) to a scratch folder and runs `make build-<LogicalId>`
# there with ARTIFACTS_DIR set to the function's output folder. Each target hands the work to
# bin/build-function, which builds the function's layout module (deploy/functions/<module>) with
# Maven and copies its target/function folder: classes at the root, jars in lib/.
#
# Without the sam CLI: `make build-all` builds all four into .aws-sam/manual/<LogicalId>, and
# `make check-artifacts` does that and then checks the layout, as CI would.

SHELL := /bin/bash

# The builds run Maven in one tree: never two at a time, even under `make -j`.
.NOTPARALLEL:

MANUAL_DIR := .aws-sam/manual

.PHONY: build-ProducerFunction build-WorkerFunction build-WorkerTwinFunction build-AggregatorFunction build-DeadLetterRecorderFunction \
        build-all check-artifacts clean-artifacts

build-ProducerFunction:
	bash bin/build-function producer "$(ARTIFACTS_DIR)"

build-WorkerFunction:
	bash bin/build-function worker "$(ARTIFACTS_DIR)"

# The worker on the other architecture (CompareArchitectures): the same artifact, whose only native
# library, zstd-jni, carries both arm64 and x86_64 code. sam build builds it whatever the condition.
build-WorkerTwinFunction:
	bash bin/build-function worker "$(ARTIFACTS_DIR)"

build-AggregatorFunction:
	bash bin/build-function aggregator "$(ARTIFACTS_DIR)"

# The dead-letter recorder is another handler in the worker's artifact.
build-DeadLetterRecorderFunction:
	bash bin/build-function worker "$(ARTIFACTS_DIR)"

build-all: clean-artifacts
	$(MAKE) --no-print-directory build-ProducerFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/ProducerFunction"
	$(MAKE) --no-print-directory build-WorkerFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/WorkerFunction"
	$(MAKE) --no-print-directory build-AggregatorFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/AggregatorFunction"
	$(MAKE) --no-print-directory build-DeadLetterRecorderFunction ARTIFACTS_DIR="$(CURDIR)/$(MANUAL_DIR)/DeadLetterRecorderFunction"

# Builds all three from scratch, then fails unless each folder holds its handler at the root and
# the libraries it needs in lib/, and none of what must not ship (see bin/check-artifacts).
check-artifacts: build-all
	bash bin/check-artifacts "$(MANUAL_DIR)"

clean-artifacts:
	rm -rf "$(MANUAL_DIR)"
