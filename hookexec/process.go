package hookexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// procSpec is one process to run: what, where, with what, and where its
// output goes.
type procSpec struct {
	path   string
	argv0  string   // argv[0]; empty: path
	args   []string // argv[1:]
	dir    string
	env    []string
	stdout func(io.Reader)
	stderr func(io.Reader)
	now    func() time.Time
}

// procStats is what the kernel tells about a finished process.
type procStats struct {
	exitCode int
	duration time.Duration
	userCPU  time.Duration
	sysCPU   time.Duration
	maxRSS   int64 // bytes
}

// drainTimeout bounds the wait for a hook's output pipes after the hook and
// its process group are gone: only a process that left the group (setsid)
// can still hold them, and its output is not the hook's anymore.
const drainTimeout = 2 * time.Second

// runProcess runs spec in its own process group. When ctx ends the whole
// group is killed; when the hook exits, whatever it left running in its group
// is killed too, so a run leaves no processes behind. The returned error is
// the context's (the caller names it) or a failure to start; a non-zero exit
// is only stats.exitCode.
func runProcess(ctx context.Context, spec procSpec) (procStats, error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return procStats{}, fmt.Errorf("stdout pipe: %w", err)
	}
	defer outR.Close()
	errR, errW, err := os.Pipe()
	if err != nil {
		outW.Close()
		return procStats{}, fmt.Errorf("stderr pipe: %w", err)
	}
	defer errR.Close()
	cmd := exec.CommandContext(ctx, spec.path, spec.args...)
	if spec.argv0 != "" {
		cmd.Args[0] = spec.argv0
	}
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = spec.dir, spec.env, outW, errW
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process.Pid) }
	cmd.WaitDelay = drainTimeout
	start := spec.now()
	err = cmd.Start()
	outW.Close()
	errW.Close()
	if err != nil {
		return procStats{}, fmt.Errorf("start: %w", err)
	}
	var readers sync.WaitGroup
	readers.Go(func() { spec.stdout(outR) })
	readers.Go(func() { spec.stderr(errR) })
	waitErr := cmd.Wait()
	stats := statsOf(cmd.ProcessState, spec.now().Sub(start))
	_ = killGroup(cmd.Process.Pid)
	drain(&readers, outR, errR)
	if waitErr != nil && ctx.Err() != nil {
		return stats, ctx.Err()
	}
	return stats, nil
}

// killGroup sends SIGKILL to the process group pgid. A group that is already
// gone is os.ErrProcessDone, which exec.Cmd's Cancel understands.
func killGroup(pgid int) error {
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return os.ErrProcessDone
	}
	return err
}

// drain waits for the output readers; past drainTimeout it closes the pipes
// so that they return.
func drain(readers *sync.WaitGroup, pipes ...*os.File) {
	done := make(chan struct{})
	go func() {
		readers.Wait()
		close(done)
	}()
	timer := time.NewTimer(drainTimeout)
	defer timer.Stop()
	select {
	case <-done:
	case <-timer.C:
		for _, p := range pipes {
			p.Close()
		}
		<-done
	}
}

func statsOf(state *os.ProcessState, d time.Duration) procStats {
	s := procStats{exitCode: state.ExitCode(), duration: d, userCPU: state.UserTime(), sysCPU: state.SystemTime()}
	if ws, ok := state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		s.exitCode = 128 + int(ws.Signal())
	}
	if ru, ok := state.SysUsage().(*syscall.Rusage); ok {
		s.maxRSS = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return s
}
