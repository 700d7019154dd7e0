package proc_test

import (
	"os/exec"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
)

// A running process has not exited within a short wait; once it ends it
// has, and so has its pid once reaped (no such process).
func TestExited(t *testing.T) {
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if proc.Exited(t, pid, 50*time.Millisecond) {
		t.Fatal("a running sleep counted as exited")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if !proc.Exited(t, pid, 5*time.Second) {
		t.Fatal("a killed sleep not seen exiting within 5s")
	}
	_ = cmd.Wait()
	if !proc.Exited(t, pid, 0) {
		t.Fatal("a reaped pid not counted as exited")
	}
}
