package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
	"github.com/addon-actors/addon-operator/test/scenario"
)

// bench is the state shared by the runs: the cluster's objects and a
// count of runs, which makes each run's sentinel and hook file unique.
type bench struct {
	o      options
	launch scenario.Launch // where the operator runs: the work dir
	objs   *objects
	n      int
}

// measure runs bin once: start to /readyz 200, memory once idle, then
// the storm, and prints the figures.
func (b *bench) measure(ctx context.Context, prefix, bin string) error {
	b.n++
	sentinel := "end-" + strconv.Itoa(b.n)
	out := filepath.Join(b.launch.Root, fmt.Sprintf("hook-%d.log", b.n))
	config, err := hookConfig(namespace, b.o.group, b.o.includeSelf)
	if err != nil {
		return err
	}
	if err := writeHook(filepath.Join(b.launch.Root, "global-hooks"), out, config, sentinel); err != nil {
		return err
	}
	start := time.Now()
	op, err := scenario.StartProcess(bin, b.launch)
	if err != nil {
		return err
	}
	defer op.Stop()
	if _, err := op.WaitReady(); err != nil {
		return fmt.Errorf("%sstart: %w", prefix, err)
	}
	ready := time.Since(start)
	if err := waitIdle(op); err != nil {
		return err
	}
	fmt.Printf("%sready %.2f s, RSS %d MB (anonymous %d MB) once idle %.2f s after the start; %d hook runs so far\n", prefix,
		ready.Seconds(), proc.StatusBytes(op.Pid(), "VmRSS:")>>20, proc.StatusBytes(op.Pid(), "RssAnon:")>>20,
		time.Since(start).Seconds(), readHookLog(out).runs)
	return b.storm(ctx, prefix, op, out, sentinel)
}

// storm patches the objects, then the sentinel, waits until the hook saw
// it and prints what that cost.
func (b *bench) storm(ctx context.Context, prefix string, op *scenario.Process, out, sentinel string) error {
	before := readHookLog(out)
	cpu0, err := proc.CPU(op.Pid())
	if err != nil {
		return err
	}
	peak := proc.SamplePeak(op.Pid(), "RssAnon:", 50*time.Millisecond)
	took, err := b.objs.storm(ctx, b.o.patches, b.o.clients, b.n*b.o.patches)
	if err != nil {
		peak.Stop()
		return err
	}
	if _, err := b.objs.setPhase(ctx, 0, sentinel); err != nil {
		peak.Stop()
		return err
	}
	last := time.Now()
	err = op.Poll("the hook seeing the last change", 20*time.Millisecond, 5*time.Minute, func() bool {
		return readHookLog(out).seen
	})
	seen := time.Since(last)
	anon := peak.Stop()
	if err != nil {
		return err
	}
	cpu1, err := proc.CPU(op.Pid())
	if err != nil {
		return err
	}
	after := readHookLog(out)
	fmt.Printf("%sstorm: %d patches in %.2f s (%.0f/s); last change seen %.2f s after the last patch; %d hook runs (%d contexts); operator CPU %.2f s; peak RssAnon %d MB\n",
		prefix, b.o.patches, took.Seconds(), float64(b.o.patches)/took.Seconds(), seen.Seconds(),
		after.runs-before.runs, after.contexts-before.contexts, (cpu1.Self - cpu0.Self).Seconds(), anon>>20)
	return nil
}
