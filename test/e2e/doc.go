// Package e2e runs the built addon-operator binary against the real
// kube-apiserver of test/cluster, as a user runs it: a modules directory,
// environment variables, the HTTP port and the process's exit code.
package e2e
