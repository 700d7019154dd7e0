// Command kubectl is the upstream Kubernetes command line, at the test
// cluster's version, for tests that check what a user of kubectl sees (the
// image builds the same one from the tool directive in go.mod).
package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	if err := cli.RunNoErrOutput(cmd.NewDefaultKubectlCommand()); err != nil {
		util.CheckErr(err)
	}
}
