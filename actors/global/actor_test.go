package global_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/messages"
)

// A task of a new queue that arrives while the global actor stops (its
// hooks still configuring) is refused, not given a new worker: a worker
// spawned then would never be stopped, and the actor would never end.
func TestTaskArrivingWhileStoppingSpawnsNoWorker(t *testing.T) {
	dir := t.TempDir()
	hook := "#!/bin/sh\nif [ \"$1\" = --config ]; then sleep 0.3; echo '{\"configVersion\":\"v1\",\"onStartup\":1}'; exit 0; fi\n"
	if err := os.WriteFile(filepath.Join(dir, "slow"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	kit, probe, pid := spawnGlobal(t, dir)
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
	if err := stopped.Wait(); err != nil {
		t.Fatalf("the global actor did not stop: %v", err)
	}
}
