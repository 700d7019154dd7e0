package cluster

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/addon-actors/addon-operator/test/proc"
)

// server is one of the two processes, recorded in DIR by its PID file.
type server struct {
	name string // "etcd" or "kube-apiserver": names the pid and log files
	dir  string
}

func (s server) pidFile() string { return filepath.Join(s.dir, s.name+".pid") }
func (s server) logFile() string { return filepath.Join(s.dir, s.name+".log") }

// start launches the server in its own session so that it outlives the
// command that started it (testcluster start returns once ready). When
// dieWithParent is set, the kernel kills it if the starting process dies,
// so a crashed test binary leaves nothing behind.
func (s server) start(bin string, args []string, dieWithParent bool) (*exec.Cmd, error) {
	logf, err := os.OpenFile(s.logFile(), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s log: %w", s.name, err)
	}
	defer logf.Close()
	cmd := exec.Command(bin, args...)
	cmd.Dir = s.dir
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if dieWithParent {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", s.name, err)
	}
	pid := strconv.Itoa(cmd.Process.Pid) + "\n"
	if err := os.WriteFile(s.pidFile(), []byte(pid), 0o644); err != nil {
		_ = cmd.Process.Kill()
		return nil, fmt.Errorf("%s pid file: %w", s.name, err)
	}
	return cmd, nil
}

// running reports the recorded PID when that process is alive and is still
// our binary (a PID reused by an unrelated process is not ours to kill).
func (s server) running() (int, bool) {
	data, err := os.ReadFile(s.pidFile())
	if err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 {
		return 0, false
	}
	return pid, alive(pid, s.name)
}

// alive is true when pid exists, is not a zombie, and runs a binary called name.
func alive(pid int, name string) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	argv0, _, _ := bytes.Cut(cmdline, []byte{0})
	return filepath.Base(string(argv0)) == name
}

// stop sends SIGTERM, waits up to grace for the process to go, then SIGKILL.
// It removes the PID file once the process is gone.
func (s server) stop(grace time.Duration) error {
	pid, ok := s.running()
	if !ok {
		_ = os.Remove(s.pidFile())
		return nil
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	if !waitGone(pid, s.name, grace) {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		if !waitGone(pid, s.name, 5*time.Second) {
			return fmt.Errorf("%s (pid %d) still running after SIGKILL", s.name, pid)
		}
	}
	return os.Remove(s.pidFile())
}

// waitGone waits on a pidfd for the process to exit: it need not be our
// child (the starting command may have exited), and a pidfd reports the
// exit of any process. The name is checked once the pidfd is open, so a
// PID reused by another program counts as gone.
func waitGone(pid int, name string, limit time.Duration) bool {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return !alive(pid, name) // ESRCH: no such process
	}
	defer unix.Close(fd)
	if !alive(pid, name) {
		return true
	}
	exited, _ := proc.PollExit(fd, limit)
	return exited
}

// logTail is the end of the server's log, for error messages.
func (s server) logTail(lines int) string {
	data, err := os.ReadFile(s.logFile())
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	return Tail(string(data), lines)
}
