// Package cluster builds and runs a real Kubernetes control plane for tests
// and local runs: an etcd server and the upstream kube-apiserver, both
// compiled from source in the separate Go module under servers/ (so this
// module's k8s.io versions stay free) and cached by a key of their sources.
// It starts them on free loopback ports, writes a kubeconfig with a
// system:masters token, and stops them by the PIDs it recorded. Tests use
// Main and Config; the testcluster command wraps the same functions.
//
// StartWithNode (opt-in, `testcluster start --node`) adds one node that
// schedules and runs pods: kube-controller-manager, kube-scheduler and the
// kubelet built like the apiserver, containerd, runc and the CNI bridge
// plugin from the host's packages, and PauseImage, built from servers/pause
// and imported without a registry. Stop takes it all down.
package cluster
