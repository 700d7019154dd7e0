// Command kube-apiserver is the upstream Kubernetes API server, built from
// k8s.io/kubernetes so that the test cluster needs no prebuilt binary.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

func main() {
	os.Exit(cli.Run(app.NewAPIServerCommand()))
}
