// Command kubelet is the upstream Kubernetes node agent, built from
// k8s.io/kubernetes for the test cluster's node mode.
package main

import (
	"context"
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kubelet/app"
)

func main() {
	os.Exit(cli.Run(app.NewKubeletCommand(context.Background())))
}
