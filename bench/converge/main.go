// Command converge measures the operator as a process: the cold converge of
// generated modules (process start to /readyz 200), a restart with nothing
// changed (which must upgrade no release), and the peak RSS of each run. It
// starts its own test cluster, builds the binary, and prints the figures.
//
//	go run ./bench/converge -modules 100
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

func main() {
	modules := flag.Int("modules", 100, "modules to generate")
	keep := flag.Bool("keep", false, "keep the work dir")
	profile := flag.String("profile", "", "write CPU profiles and traces of both runs into this dir")
	flag.Parse()
	if err := run(*modules, *keep, *profile); err != nil {
		fmt.Fprintln(os.Stderr, "converge:", err)
		os.Exit(1)
	}
}

func run(modules int, keep bool, profile string) error {
	work, err := os.MkdirTemp("", "bench-converge-")
	if err != nil {
		return err
	}
	if !keep {
		defer os.RemoveAll(work)
	}
	ctx := context.Background()
	c, err := cluster.Start(ctx, filepath.Join(work, "cluster"), cluster.Options{DieWithParent: true})
	if err != nil {
		return err
	}
	defer cluster.Stop(c.Dir)
	bin := filepath.Join(work, "addon-operator")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/addon-operator").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	if err := generate(work, modules); err != nil {
		return err
	}
	if err := createNamespace(ctx, c.Kubeconfig, "bench"); err != nil {
		return err
	}
	fmt.Printf("fixture: %d modules, each a hook on beforeHelm+afterHelm writing a values patch and a chart of 2 ConfigMaps\n", modules)
	for i, name := range []string{"cold converge", "restart, nothing changed"} {
		var env []string
		if profile != "" {
			env = []string{fmt.Sprintf("ADDON_OPERATOR_CPU_PROFILE=%s/cpu-%d.out", profile, i),
				fmt.Sprintf("ADDON_OPERATOR_TRACE=%s/trace-%d.out", profile, i)}
		}
		r, err := measure(bin, work, c.Kubeconfig, env...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Printf("%-26s ready in %6.2fs  helm upgrades %3d  peak RSS %4d MB  (%s)\n", name+":", r.ready.Seconds(),
			r.upgrades, r.peakRSS>>20, r.phases)
	}
	return nil
}

// result is one run of the operator.
type result struct {
	ready    time.Duration
	upgrades int
	peakRSS  int64
	phases   string
}
