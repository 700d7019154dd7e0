package main

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// sizeFigures are the runs of one module count.
type sizeFigures struct {
	modules    int
	configRuns int
	cold       result
	restarts   []result
}

// medianRestart is the restart with the median ready time.
func (f sizeFigures) medianRestart() result {
	rs := slices.Clone(f.restarts)
	slices.SortFunc(rs, func(a, b result) int { return int(a.ready - b.ready) })
	return rs[len(rs)/2]
}

// parseScale reads -scale: module counts, comma-separated ("" is none).
func parseScale(text string) ([]int, error) {
	if text == "" {
		return nil, nil
	}
	var sizes []int
	for _, field := range strings.Split(text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(field))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-scale %q: %q is not a module count", text, field)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// runSizes runs o once, or once per size (o.modules replaced) with the
// binary built once, and then prints each size's figures and their ratios.
func runSizes(o options, sizes []int) error {
	if len(sizes) == 0 {
		_, err := run(o)
		return err
	}
	if o.bin == "" {
		dir, err := os.MkdirTemp("", "bench-converge-bin-")
		if err != nil {
			return fmt.Errorf("bin dir: %w", err)
		}
		defer os.RemoveAll(dir)
		if o.bin, err = scenario.OperatorBinary("", dir); err != nil {
			return err
		}
	}
	var all []sizeFigures
	for _, n := range sizes {
		o.modules = n
		fmt.Printf("\n== %d modules\n", n)
		f, err := run(o)
		if err != nil {
			return fmt.Errorf("%d modules: %w", n, err)
		}
		all = append(all, f)
	}
	fmt.Print(scaleText(all))
	return nil
}

// scaleText is the summary of a -scale run: a line per size and the ratio
// of the last size's figures to the first's.
func scaleText(all []sizeFigures) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nscale (restart: the median of the restarts; %d cores):\n", runtime.NumCPU())
	for _, f := range all {
		r := f.medianRestart()
		fmt.Fprintf(&b, "%5d modules: cold ready %6.2fs (%.2f× floor), restart ready %6.2fs (%.2f× floor), discovered %5.2fs; "+
			"operator CPU %.2f ms/module, %.2f ms/hook run; anon at rest %.1f KB/module\n",
			f.modules, f.cold.ready.Seconds(), ratio(f.cold.ready, f.cold.usage.floor()), r.ready.Seconds(),
			ratio(r.ready, r.usage.floor()), r.discovered.Seconds(), ms(f.perModule(r)), ms(f.perRun(r)), f.anonPerModule(r))
	}
	if len(all) < 2 {
		return b.String()
	}
	first, last := all[0], all[len(all)-1]
	fr, lr := first.medianRestart(), last.medianRestart()
	fmt.Fprintf(&b, "ratio %d/%d modules: restart ready %.2f×, discovered %.2f×, operator CPU per module %.2f×, per hook run %.2f×, anon per module %.2f×\n",
		last.modules, first.modules, ratio(lr.ready, fr.ready), ratio(lr.discovered, fr.discovered),
		ratio(last.perModule(lr), first.perModule(fr)), ratio(last.perRun(lr), first.perRun(fr)),
		last.anonPerModule(lr)/max(first.anonPerModule(fr), 1e-9))
	fmt.Fprintf(&b, "each module past the first %d (restart, at rest): anon %.1f KB, operator CPU %.2f ms\n", first.modules,
		float64(lr.usage.restAnon-fr.usage.restAnon)/1024/float64(max(last.modules-first.modules, 1)),
		ms(perCount(lr.usage.cpu-fr.usage.cpu, last.modules-first.modules)))
	return b.String()
}

func (f sizeFigures) perModule(r result) time.Duration { return perCount(r.usage.cpu, f.modules) }

func (f sizeFigures) perRun(r result) time.Duration {
	return perCount(r.usage.cpu, f.configRuns+r.hookRuns)
}

func (f sizeFigures) anonPerModule(r result) float64 {
	return float64(r.usage.restAnon) / 1024 / float64(max(f.modules, 1))
}

// discoveryLine sets when discovery ended beside the CPU spent by then
// over the cores (operator + hooks + cluster: discovery cannot end
// sooner) and what the hooks' --config runs cost over the cores (priced
// with the hook alone).
func discoveryLine(discovered time.Duration, by cpuPoint, configCPU time.Duration) string {
	cores := runtime.NumCPU()
	text := fmt.Sprintf("discovered after %.2fs; CPU by then operator %.2fs + hooks %.2fs + apiserver/etcd %.2fs: a floor of %.2fs (%.2f× that)",
		discovered.Seconds(), by.self.Seconds(), by.hooks.Seconds(), by.cluster.Seconds(), by.floor(cores).Seconds(),
		ratio(discovered, by.floor(cores)))
	if configCPU == 0 {
		return text
	}
	over := configCPU / time.Duration(cores)
	return text + fmt.Sprintf("; the --config runs' CPU over the cores %.2fs (%.2f× that)", over.Seconds(), ratio(discovered, over))
}
