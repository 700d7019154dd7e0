// Command converge measures the operator as a process: the cold converge of
// generated modules (process start to /readyz 200), a restart with nothing
// changed (which must upgrade no release), and the peak RSS of each run. It
// starts its own test cluster, builds the binary, and prints the figures.
//
//	go run ./bench/converge -modules 100 -restarts 5
//
// With -restarts N the restart is measured N times and the median printed
// too (the machine is shared: single runs are noisy).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

func main() {
	modules := flag.Int("modules", 100, "modules to generate")
	keep := flag.Bool("keep", false, "keep the work dir")
	profile := flag.String("profile", "", "write CPU profiles and traces of both runs into this dir")
	restarts := flag.Int("restarts", 1, "how many times to measure the restart with nothing changed (median printed)")
	logs := flag.String("logs", "", "write each run's operator log into this dir")
	flag.Parse()
	if err := run(options{*modules, *keep, *profile, *restarts, *logs}); err != nil {
		fmt.Fprintln(os.Stderr, "converge:", err)
		os.Exit(1)
	}
}

type options struct {
	modules  int
	keep     bool
	profile  string
	restarts int
	logs     string
}

func run(o options) error {
	work, err := os.MkdirTemp("", "bench-converge-")
	if err != nil {
		return err
	}
	if !o.keep {
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
	if err := generate(work, o.modules); err != nil {
		return err
	}
	if err := createNamespace(ctx, c.Kubeconfig, "bench"); err != nil {
		return err
	}
	fmt.Printf("fixture: %d modules, each a hook on beforeHelm+afterHelm writing a values patch and a chart of 2 ConfigMaps\n", o.modules)
	var restarts []time.Duration
	for i := range 1 + max(o.restarts, 1) {
		name := "cold converge"
		if i > 0 {
			name = "restart, nothing changed"
		}
		r, err := measure(bin, work, c.Kubeconfig, o.runEnv(i)...)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if o.logs != "" {
			if err := os.WriteFile(filepath.Join(o.logs, fmt.Sprintf("run-%d.log", i)), r.log, 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%-26s ready in %6.2fs  helm upgrades %3d  peak RSS %4d MB  (%s)\n", name+":", r.ready.Seconds(),
			r.upgrades, r.peakRSS>>20, r.phases)
		if i > 0 {
			restarts = append(restarts, r.ready)
		}
	}
	if len(restarts) > 1 {
		slices.Sort(restarts)
		fmt.Printf("restart median of %d: %.2fs (min %.2fs, max %.2fs)\n", len(restarts),
			restarts[len(restarts)/2].Seconds(), restarts[0].Seconds(), restarts[len(restarts)-1].Seconds())
	}
	return nil
}

// runEnv asks run i for a CPU profile and a trace when -profile is set.
func (o options) runEnv(i int) []string {
	if o.profile == "" {
		return nil
	}
	return []string{fmt.Sprintf("ADDON_OPERATOR_CPU_PROFILE=%s/cpu-%d.out", o.profile, i),
		fmt.Sprintf("ADDON_OPERATOR_TRACE=%s/trace-%d.out", o.profile, i)}
}

// result is one run of the operator.
type result struct {
	ready    time.Duration
	upgrades int
	peakRSS  int64
	phases   string
	log      []byte
}
