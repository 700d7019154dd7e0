// Package test groups what the operator's tests stand on: actortest (the
// public kit for actor tests), cluster (a real kube-apiserver and etcd built
// from source and started for tests and local runs), proc (waiting for a
// process to exit, by pidfd) and e2e (scenarios that run the built binary
// against that cluster).
package test
