package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	socket := filepath.Join(b.launch.Root, "debug.socket")
	op, err := scenario.StartProcess(bin, b.launch, "DEBUG_UNIX_SOCKET="+socket)
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
	if err := b.profile(socket, "rest"); err != nil {
		return err
	}
	if err := b.storm(ctx, prefix, op, out, sentinel); err != nil {
		return err
	}
	return b.profile(socket, "storm")
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
	fmt.Printf("%s%s; %d WARN \"binding context file is large\" so far\n", prefix,
		b.delivered(after.contexts-before.contexts), strings.Count(op.Logs(), `"msg":"binding context file is large`))
	return nil
}

// profile saves the operator's heap profile as heap-RUN-WHEN.pb.gz in
// -profiles, when set, from its debug socket.
func (b *bench) profile(socket, when string) error {
	if b.o.profiles == "" {
		return nil
	}
	if err := os.MkdirAll(b.o.profiles, 0o755); err != nil {
		return err
	}
	path := filepath.Join(b.o.profiles, fmt.Sprintf("heap-%d-%s.pb.gz", b.n, when))
	if err := saveHeap(socket, path); err != nil {
		// A binary without /debug/pprof (an older build, the original)
		// is measured all the same.
		fmt.Printf("no heap profile %s: %v\n", path, err)
	}
	return nil
}

// delivered says whether every change reached the hook: without a group
// each patch and the sentinel is one Event context (a group's runs carry
// Group contexts, which are compacted).
func (b *bench) delivered(contexts int) string {
	if b.o.group {
		return "changes not counted (group contexts are compacted)"
	}
	if want := b.o.patches + 1; contexts != want {
		return fmt.Sprintf("CHANGES LOST: %d Event contexts, want %d (patches + the sentinel)", contexts, want)
	}
	return "every change reached the hook"
}
