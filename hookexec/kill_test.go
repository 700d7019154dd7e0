package hookexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
)

// TestRunCancelKillsProcessGroup cancels a hook that has a child and a
// grandchild, once it says it is ready, and checks that none of them is left.
func TestRunCancelKillsProcessGroup(t *testing.T) {
	out := t.TempDir()
	rec := newRecorder("ready")
	r := newRunner(t, Options{Logger: slog.New(rec), TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + out)})
	ready := rec.wait("ready")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-ready
		cancel()
	}()
	_, err := r.Run(ctx, Request{Hook: testHook(t, "spawn-and-hang.sh"), Scope: PatchScope{RootKey: "global"}})
	if !errors.Is(err, ErrCanceled) {
		t.Fatalf("err = %v, want ErrCanceled", err)
	}
	assertGone(t, out, "hook.pid", "child.pid", "subshell.pid", "grandchild.pid")
}

func TestRunTimeoutKillsProcessGroup(t *testing.T) {
	out := t.TempDir()
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + out), Timeout: time.Hour})
	start := time.Now()
	_, err := r.Run(context.Background(), Request{
		Hook: testHook(t, "spawn-and-hang.sh"), Scope: PatchScope{RootKey: "global"},
		Timeout: 2 * time.Second, // overrides the runner's hour; long enough for the script to start its processes on a loaded machine
	})
	wantErr(t, err, ErrTimeout, "spawn-and-hang.sh")
	if elapsed := time.Since(start); elapsed > 10*time.Second {
		t.Errorf("timed-out run took %s", elapsed)
	}
	assertGone(t, out, "hook.pid", "child.pid", "subshell.pid", "grandchild.pid")
}

// TestRunKillsWhatTheHookLeft: a hook that exits leaving a background child
// holding its stdout returns at once (no wait for the drain timeout), and
// the child is gone.
func TestRunKillsWhatTheHookLeft(t *testing.T) {
	out := t.TempDir()
	r := newRunner(t, Options{TmpDir: t.TempDir(), Environ: baseEnv("OUT_DIR=" + out)})
	start := time.Now()
	if _, err := r.Run(context.Background(), Request{Hook: testHook(t, "leave-child.sh"), Scope: PatchScope{RootKey: "global"}}); err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed >= drainTimeout {
		t.Errorf("run took %s: it waited for the left child's pipe", elapsed)
	}
	assertGone(t, out, "child.pid")
}

// assertGone checks that each recorded process has exited. SIGKILL is
// delivered asynchronously, so it waits for the exit on a pidfd (an event,
// not polling), at most exitWait: a process that was not killed sleeps far
// longer. A killed process whose parent was killed too is reaped by init,
// not by us, and may linger a moment as init's zombie; no zombie may be a
// child of the test process.
func assertGone(t *testing.T, dir string, pidFiles ...string) {
	t.Helper()
	const exitWait = 5 * time.Second
	for _, f := range pidFiles {
		pid, err := strconv.Atoi(readFile(t, filepath.Join(dir, f)))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !proc.Exited(t, pid, exitWait) {
			state, ppid, _ := procState(pid)
			t.Errorf("%s: pid %d still running after %s, state %s, parent %d", f, pid, exitWait, state, ppid)
		}
	}
	assertNoZombieChildren(t)
}

// procState reads /proc/PID/stat: state and parent pid.
func procState(pid int) (state string, ppid int, alive bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, false
	}
	// The command name is in parentheses and may hold spaces.
	rest := b[bytes.LastIndexByte(b, ')')+2:]
	fields := strings.Fields(string(rest))
	ppid, _ = strconv.Atoi(fields[1])
	return fields[0], ppid, true
}

func assertNoZombieChildren(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if state, ppid, alive := procState(pid); alive && state == "Z" && ppid == os.Getpid() {
			t.Errorf("zombie child %d of the test process", pid)
		}
	}
}
