// Command pause is the test cluster's only container image: the pod sandbox
// that containerd starts for every pod (no registry is needed for it), and a
// container that tests run.
//
// Without arguments it waits for SIGTERM or SIGINT and exits 0, as the
// upstream pause image does. With arguments it prints them as one line and
// exits 0, for a pod that runs to completion.
package main

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	if len(os.Args) > 1 {
		fmt.Println(strings.Join(os.Args[1:], " "))
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
}
