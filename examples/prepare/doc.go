// Command prepare readies a cluster for the example: it creates the
// operator's namespace and applies examples/configmap.yaml, with nothing
// but the kubeconfig (no kubectl needed).
package main
