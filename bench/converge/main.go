package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

func main() {
	modules := flag.Int("modules", 100, "modules to generate")
	keep := flag.Bool("keep", false, "keep the work dir")
	profile := flag.String("profile", "", "write CPU profiles and traces of the runs, and their heap profiles once ready (and settled), into this dir")
	restarts := flag.Int("restarts", 1, "how many times to measure the restart with nothing changed (median printed)")
	logs := flag.String("logs", "", "write each run's operator log into this dir")
	baseline := flag.String("baseline", "", "an operator binary to measure alternately with this one on every restart")
	bin := flag.String("bin", "", "measure this operator binary instead of building ./cmd/addon-operator")
	weights := flag.Int("weights", 0, "weight groups of equal size (module dirs prefixed with that many numbers); 0: one weight per module")
	requires := flag.Int("requires", 0, "root modules (the first N, no module.yaml); every other module gets a module.yaml requiring one of them, round-robin; 0: no module.yaml")
	parallel := flag.Int("parallel", 1, "ADDON_OPERATOR_PARALLEL_MODULE_RUNS of the runs")
	disabled := flag.Int("disabled", 0, "disable the last N modules (mNEnabled: false in the modules' values.yaml): what a disabled module costs")
	hooks := flag.Bool("hooks", true, "give each module its hook (false: charts only, the operator's and helm's own cost)")
	scale := flag.String("scale", "", "module counts to run one after another, each on a cluster of its own, e.g. 100,1000: each size's figures and their ratio are printed at the end (overrides -modules)")
	settle := flag.Duration("settle", 0, "keep each run going this long after it is ready before its apiserver requests are counted (the Module objects are written after the first converge)")
	var env, baselineEnv envList
	flag.Var(&env, "env", "KEY=VALUE for the measured runs (repeatable)")
	flag.Var(&baselineEnv, "baseline-env", "KEY=VALUE for the baseline's runs (repeatable); without -baseline, the baseline is the measured binary with this environment")
	flag.Parse()
	sizes, err := parseScale(*scale)
	if err == nil {
		err = runSizes(options{modules: *modules, keep: *keep, profile: *profile, restarts: *restarts, logs: *logs,
			baseline: *baseline, bin: *bin, weights: *weights, requires: *requires, parallel: *parallel, hooks: *hooks, disabled: *disabled,
			env: env, baselineEnv: baselineEnv, settle: *settle}, sizes)
	}
	if err != nil {
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
	baseline string
	bin      string
	weights  int
	requires int
	parallel int
	hooks    bool
	disabled int
	// env and baselineEnv are added to the measured runs' and the
	// baseline's environment.
	env, baselineEnv envList
	// settle is how long a run goes on after it is ready before its
	// requests are counted.
	settle time.Duration
	// hookCPU is the fixture hook's CPU per --config run, priced before
	// the runs (0 without hooks).
	hookCPU time.Duration
}

// envList is a repeatable KEY=VALUE flag.
type envList []string

func (l *envList) String() string { return strings.Join(*l, " ") }

func (l *envList) Set(s string) error {
	if !strings.Contains(s, "=") {
		return fmt.Errorf("%q: want KEY=VALUE", s)
	}
	*l = append(*l, s)
	return nil
}

// run measures o.modules modules on a cluster of its own: the cold
// converge, the restarts, and their medians.
func run(o options) (sizeFigures, error) {
	if err := makeDirs(o.profile, o.logs); err != nil {
		return sizeFigures{}, err
	}
	setup, err := scenario.StartBench("bench-converge-", o.bin, o.keep)
	if err != nil {
		return sizeFigures{}, err
	}
	defer setup.Close()
	if o.baseline == "" && len(o.baselineEnv) > 0 {
		o.baseline = setup.Binary
	}
	if err := generate(setup.Work, o.modules, o.weights, o.requires, o.hooks, o.disabled); err != nil {
		return sizeFigures{}, err
	}
	if err := createNamespace(context.Background(), setup.Cluster.Kubeconfig, "bench"); err != nil {
		return sizeFigures{}, err
	}
	if o.hookCPU, err = o.printFixture(setup.Work); err != nil {
		return sizeFigures{}, err
	}
	return o.measureAll(setup)
}

// makeDirs makes each dir that is set.
func makeDirs(dirs ...string) error {
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	return nil
}

// printFixture says what is measured, and what the hook alone costs (its
// CPU per run is returned).
func (o options) printFixture(work string) (time.Duration, error) {
	fmt.Printf("fixture: %d modules, each %s a chart of 2 ConfigMaps\n", o.modules,
		map[bool]string{true: "a hook on beforeHelm+afterHelm writing a values patch and", false: "(no hooks)"}[o.hooks])
	fmt.Printf("weights: %s, parallel module runs: %d\n", weightsText(o.modules, o.weights), o.parallel)
	fmt.Printf("requires: %s\n", requiresText(o.modules, o.requires))
	if o.disabled > 0 {
		fmt.Printf("disabled: the last %d modules\n", min(o.disabled, o.modules))
	}
	if !o.hooks {
		return 0, nil
	}
	cpu, wall, err := hookCost(work, 20)
	if err != nil {
		return 0, err
	}
	fmt.Printf("the hook alone, through the kernel and env(1) (--config, 20 runs): %.1f ms CPU, %.1f ms wall per run; a restart runs it 3 times per module: %.2f s of CPU (the operator skips env: less)\n",
		ms(cpu), ms(wall), (3 * time.Duration(o.modules) * cpu).Seconds())
	return cpu, nil
}

// measureAll measures the cold converge and the restarts (each followed by
// the baseline's when there is one) and prints the medians.
func (o options) measureAll(setup *scenario.Bench) (sizeFigures, error) {
	var restarts, baseline []time.Duration
	var restartUse, baselineUse []usage
	figures := sizeFigures{modules: o.modules, configRuns: o.configRuns()}
	for i := range 1 + max(o.restarts, 1) {
		r, err := o.measureRun(i, "", setup.Binary, setup)
		if err != nil {
			return figures, err
		}
		if i == 0 {
			figures.cold = r
			continue
		}
		figures.restarts = append(figures.restarts, r)
		restarts, restartUse = append(restarts, r.ready), append(restartUse, r.usage)
		if o.baseline != "" {
			b, err := o.measureRun(i, "baseline ", o.baseline, setup)
			if err != nil {
				return figures, err
			}
			baseline, baselineUse = append(baseline, b.ready), append(baselineUse, b.usage)
		}
	}
	printMedian("restart", restarts)
	printMedian("baseline restart", baseline)
	usageSummary("restart", restartUse, o.modules)
	usageSummary("baseline restart", baselineUse, o.modules)
	return figures, nil
}

// measureRun measures run i (0 is the cold converge) of bin and prints it.
func (o options) measureRun(i int, prefix, bin string, setup *scenario.Bench) (result, error) {
	name := "cold converge"
	if i > 0 {
		name = "restart, nothing changed"
	}
	name = prefix + name
	extra := o.env
	if prefix != "" {
		extra = o.baselineEnv
	}
	heap := ""
	if o.profile != "" {
		heap = filepath.Join(o.profile, fmt.Sprintf("%sheap-%d-%d.pb.gz", strings.TrimSpace(prefix), o.modules, i))
	}
	r, err := measure(bin, setup, o.settle, heap, append(o.runEnv(i), extra...)...)
	if err != nil {
		return r, fmt.Errorf("%s: %w", name, err)
	}
	if o.logs != "" {
		file := filepath.Join(o.logs, fmt.Sprintf("%srun-%d.log", strings.TrimSpace(prefix), i))
		if err := os.WriteFile(file, r.log, 0o644); err != nil {
			return r, err
		}
	}
	fmt.Printf("%-35s ready in %6.2fs  helm upgrades %3d  %s  (%s)\n", name+":", r.ready.Seconds(),
		r.upgrades, r.usage.line(o.modules), r.phases)
	fmt.Printf("%-35s %s\n", "", r.usage.boundLine(r.ready))
	fmt.Printf("%-35s %s; %s\n", "", r.usage.perLine(o.modules, o.configRuns(), r.hookRuns), r.goMemory.line())
	fmt.Printf("%-35s %s\n", "", discoveryLine(r.discovered, r.atDiscovered, time.Duration(o.configRuns())*o.hookCPU))
	fmt.Printf("%-35s %s\n", "", r.requests.line(o.modules))
	fmt.Printf("%-35s %s\n", "", r.requests.objectsLine(o.modules))
	return r, nil
}

// configRuns are the --config runs of a start: one per hook file (the
// fixture's one per module).
func (o options) configRuns() int {
	if !o.hooks {
		return 0
	}
	return o.modules
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func printMedian(name string, ds []time.Duration) {
	if len(ds) < 2 {
		return
	}
	slices.Sort(ds)
	fmt.Printf("%s median of %d: %.2fs (min %.2fs, max %.2fs)\n", name, len(ds),
		ds[len(ds)/2].Seconds(), ds[0].Seconds(), ds[len(ds)-1].Seconds())
}

// runEnv sets the parallel module runs, and asks run i for a CPU profile
// and a trace when -profile is set.
func (o options) runEnv(i int) []string {
	env := []string{fmt.Sprintf("ADDON_OPERATOR_PARALLEL_MODULE_RUNS=%d", max(o.parallel, 1))}
	if o.profile == "" {
		return env
	}
	return append(env, fmt.Sprintf("ADDON_OPERATOR_CPU_PROFILE=%s/cpu-%d-%d.out", o.profile, o.modules, i),
		fmt.Sprintf("ADDON_OPERATOR_TRACE=%s/trace-%d-%d.out", o.profile, o.modules, i))
}

// result is one run of the operator.
type result struct {
	ready    time.Duration
	upgrades int
	peakRSS  int64
	phases   string
	log      []byte
	usage    usage
	requests requestCounts // made to the apiserver up to /readyz 200, by anyone
	hookRuns int           // the bindings' runs up to /readyz 200, from the operator's metrics
	// discovered is when the first discovery ended (from the log), after
	// every module's hooks were configured.
	discovered time.Duration
	// goMemory is the Go runtime's memory at rest (when /metrics was read).
	goMemory goMemory
	// atDiscovered is the CPU spent when discovery ended.
	atDiscovered cpuPoint
}
