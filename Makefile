# The README's commands. Everything runs with only Go and git: the test
# cluster (etcd + kube-apiserver) is compiled from the Go module proxy on
# first use and cached in the user cache dir.
GO          ?= go
CLUSTER_DIR ?= .cache/testcluster

.PHONY: run build test vet cluster-build cluster-start cluster-stop

## run: build, start the local cluster and run the operator on examples/ in the foreground (Ctrl-C stops both)
run: build
	test/cluster/testcluster exec $(CLUSTER_DIR)-run -- examples/run.sh

## build: the operator binary in bin/
build:
	$(GO) build -o bin/addon-operator ./cmd/addon-operator

## test: go vet, then every test with the race detector against one shared real cluster
test: vet
	test/cluster/testcluster exec $(CLUSTER_DIR) -- $(GO) test -race -count=1 ./...

vet:
	$(GO) vet ./...

## cluster-build: build (or find cached) etcd and kube-apiserver
cluster-build:
	test/cluster/testcluster build

## cluster-start / cluster-stop: a cluster that outlives the command, for local work
cluster-start:
	test/cluster/testcluster start $(CLUSTER_DIR)

cluster-stop:
	test/cluster/testcluster stop $(CLUSTER_DIR)
