# The README's commands. The test cluster (etcd + kube-apiserver) is
# compiled from the Go module proxy on first use and cached in the user
# cache dir; so is the image of deploy/Dockerfile, built with podman from
# local base images (test/image; .ci/run installs podman, runc, mmdebstrap).
# Cold builds in cache dirs of their own: XDG_CACHE_HOME (the servers, the
# image's Debian tarball), GOMODCACHE and GOCACHE (mounted into the image's
# Go stages), CONTAINERS_STORAGE_CONF (podman's storage); docs/TESTING.md.
GO          ?= go
CLUSTER_DIR ?= .cache/testcluster
FUZZTIME    ?= 10m
# FUZZ_TARGETS: package:target, each a native Go fuzz target; plain `go test`
# runs their seeds (f.Add and testdata/fuzz) as tests.
FUZZ_TARGETS ?= \
	./webhook/server:FuzzAdmissionReview \
	./webhook/server:FuzzConversionReview \
	./hookexec/hookconfig:FuzzParse \
	./values:FuzzApplyPatch \
	./hookexec:FuzzParsePatch \
	./hookexec:FuzzObjectPatches \
	./hookexec:FuzzParseMetrics

.PHONY: run build test vet image-build cluster-build cluster-start cluster-stop fuzz

## run: build, start the local cluster and run the operator on examples/ in the foreground (Ctrl-C stops both)
run: build
	test/cluster/testcluster exec $(CLUSTER_DIR)-run -- examples/run.sh

## build: the operator binary in bin/
build:
	$(GO) build -o bin/addon-operator ./cmd/addon-operator

## test: go vet beside the image and the test cluster's servers (both cached), then every test with the race detector against one shared real cluster; prints where the time went at the end (.ci/make-test)
test:
	GO=$(GO) CLUSTER_DIR=$(CLUSTER_DIR) .ci/make-test

## vet: go vet with deploy/Dockerfile's compile settings (no cgo, -trimpath), so that the packages it
## compiles are the ones the image's build stage and the e2e tests' binary take from the build cache
vet:
	CGO_ENABLED=0 $(GO) vet -trimpath ./...

## fuzz: run each of FUZZ_TARGETS for FUZZTIME (default 10m), one after another; a crash stops it, its input saved under the package's testdata/fuzz
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "== $$t ($(FUZZTIME))"; \
		$(GO) test -run='^$$' -fuzz="^$${t#*:}$$" -fuzztime=$(FUZZTIME) "$${t%%:*}"; \
	done

## image-build: build (or find cached) deploy/Dockerfile's image as test/image does, before go test's timeout runs, and the test cluster's servers beside its base images (its kubectl stage reuses their Go build cache)
image-build:
	$(GO) run ./test/image/cmd/testimage build

## cluster-build: build (or find cached) etcd and kube-apiserver
cluster-build:
	test/cluster/testcluster build

## cluster-start / cluster-stop: a cluster that outlives the command, for local work
cluster-start:
	test/cluster/testcluster start $(CLUSTER_DIR)

cluster-stop:
	test/cluster/testcluster stop $(CLUSTER_DIR)
