// Command kube-controller-manager is the upstream Kubernetes controller
// manager, built from k8s.io/kubernetes for the test cluster's node mode.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-controller-manager/app"
)

func main() {
	os.Exit(cli.Run(app.NewControllerManagerCommand()))
}
