// Package test groups what the operator's tests stand on: actortest (the
// public kit for actor tests), cluster (a real kube-apiserver and etcd built
// from source and started for tests and local runs), proc (waiting for a
// process to exit, by pidfd), e2e (scenarios that run the built binary
// against that cluster) and docs (README.md and docs/*.md name only code,
// files and headings that exist).
package test
