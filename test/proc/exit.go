package proc

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// WaitExit waits up to within for process pid to exit and tells whether
// it did; a pid that does not exist (any more) has exited.
func WaitExit(pid int, within time.Duration) (bool, error) {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("pidfd_open %d: %w", pid, err)
	}
	defer unix.Close(fd)
	return PollExit(fd, within)
}

// PollExit waits up to within for the process of pidfd fd to exit and
// tells whether it did.
func PollExit(fd int, within time.Duration) (bool, error) {
	deadline := time.Now().Add(within)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		left := max(time.Until(deadline), 0)
		n, err := unix.Poll(fds, int(left.Milliseconds()))
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false, fmt.Errorf("poll pidfd: %w", err)
		}
		return n > 0, nil
	}
}

// Exited is WaitExit for a test, which it fails when the pid cannot be
// waited on.
func Exited(t testing.TB, pid int, within time.Duration) bool {
	t.Helper()
	exited, err := WaitExit(pid, within)
	if err != nil {
		t.Fatal(err)
	}
	return exited
}
