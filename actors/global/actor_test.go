package global_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// A task of a new queue that arrives while the global actor stops (its
// hooks still configuring) is refused, not given a new worker: a worker
// spawned then would never be stopped, and the actor would never end. The
// hook's --config waits on a FIFO: the test stops the actor only once the
// configuring has begun, and lets it end once the task was refused.
func TestTaskArrivingWhileStoppingSpawnsNoWorker(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	hook := "#!/bin/sh\nif [ \"$1\" = --config ]; then read line < " + fifo +
		"; echo '{\"configVersion\":\"v1\",\"onStartup\":1}'; exit 0; fi\n"
	if err := os.WriteFile(filepath.Join(dir, "slow"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	kit, probe, pid := spawnGlobal(t, dir)
	release, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once --config reads it
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { release.Close() }) // the hook reads an end of file: it never hangs
	stopped := kit.Root.StopFuture(pid)
	probe.Send(pid, messages.RunTask{Task: messages.Task{ID: 7, Queue: "other", Kind: messages.TaskGlobalHook,
		Owner: messages.OwnerGlobal, Hook: "slow"}})
	for {
		r := probe.Receive(5 * time.Second)
		if done, ok := r.Message.(messages.TaskDone); ok {
			if done.ID != 7 || done.Err == "" {
				t.Fatalf("TaskDone %+v, want task 7 refused", done)
			}
			break
		}
	}
	if _, err := release.WriteString("go\n"); err != nil {
		t.Fatal(err)
	}
	if err := stopped.Wait(); err != nil {
		t.Fatalf("the global actor did not stop: %v", err)
	}
}
