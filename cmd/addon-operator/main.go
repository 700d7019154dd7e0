package main

import (
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "addon-operator:", err)
		os.Exit(1)
	}
}

// run is the sub-command dispatcher. The operator itself (`start`) arrives
// with the lifecycle work (issue 7); until then the binary says so plainly
// instead of pretending to run.
func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: addon-operator start")
	}
	switch args[0] {
	case "start":
		return fmt.Errorf("start: the operator lifecycle is not built yet (issue 7)")
	default:
		return fmt.Errorf("unknown sub-command %q", args[0])
	}
}
