package hookrun_test

import (
	"testing"

	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// TestTasksOneAtATime: the first task starts, the others wait (a
// PerQueue Tasks refuses them); Finish answers the running task's queue
// and starts the next one in arrival order.
func TestTasksOneAtATime(t *testing.T) {
	task := func(id uint64, queue string) hookrun.Assigned {
		return hookrun.Assigned{Task: messages.Task{ID: id, Queue: queue}}
	}
	var tasks hookrun.Tasks
	perQueue := hookrun.Tasks{PerQueue: true}
	for _, tc := range []struct {
		offer         hookrun.Assigned
		want, perWant hookrun.Admission
	}{
		{task(1, "main"), hookrun.Start, hookrun.Start},
		{task(2, "a"), hookrun.Wait, hookrun.Refuse},
		{task(3, "main"), hookrun.Wait, hookrun.Refuse},
	} {
		if got := tasks.Offer(tc.offer); got != tc.want {
			t.Fatalf("offer of task %d: %v, want %v", tc.offer.Task.ID, got, tc.want)
		}
		if got := perQueue.Offer(tc.offer); got != tc.perWant {
			t.Fatalf("per queue, offer of task %d: %v, want %v", tc.offer.Task.ID, got, tc.perWant)
		}
	}
	if tasks.Len() != 3 || perQueue.Len() != 1 {
		t.Fatalf("hold %d and %d tasks, want 3 and 1", tasks.Len(), perQueue.Len())
	}
	for _, want := range []struct {
		done, next uint64
		queue      string
	}{{1, 2, "main"}, {2, 3, "a"}, {3, 0, "main"}} {
		_, reply, ok, next, hasNext := tasks.Finish(messages.TaskDone{})
		if !ok || reply.ID != want.done || reply.Queue != want.queue || hasNext != (want.next != 0) || next.Task.ID != want.next {
			t.Fatalf("finish: reply %+v ok %t, next %d (%t); want %+v", reply, ok, next.Task.ID, hasNext, want)
		}
	}
	if _, _, ok, _, _ := tasks.Finish(messages.TaskDone{}); ok {
		t.Fatal("finish with nothing running answered a task")
	}
	if refused := hookrun.Refused(messages.Task{ID: 3, Queue: "main"}, "the global actor"); refused.ID != 3 || refused.Queue != "main" ||
		refused.Err != "the global actor is still running a task of this queue" {
		t.Fatalf("refused: %+v", refused)
	}
}
