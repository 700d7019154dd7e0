// Command kube-scheduler is the upstream Kubernetes scheduler, built from
// k8s.io/kubernetes for the test cluster's node mode.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() {
	os.Exit(cli.Run(app.NewSchedulerCommand()))
}
