package queue

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/messages"
)

// eventTask is one kube event run of hook h: an Event context of binding
// b about ConfigMap name (no object when name is empty), with filter f.
func eventTask(h, b, name, f string) messages.Task {
	item := bctx.ObjectAndFilterResult{FilterResult: json.RawMessage(fmt.Sprintf("%q", f))}
	if name != "" {
		item.Object = json.RawMessage(fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"namespace":"ns","name":%q}}`, name))
	}
	return messages.Task{Kind: messages.TaskGlobalHook, Hook: h, Binding: b, MergeKey: "hook/global/" + h, Compact: true,
		Context: bctx.Marshal([]bctx.Context{bctx.WatchEventContext(b, "Modified", item, nil)}), Contexts: 1}
}

// waiting is the one waiting task of queue main, and its contexts' filter
// results in order.
func waiting(t *testing.T, q *Queues) (messages.Task, []string) {
	t.Helper()
	tasks := q.lines["main"].tasks
	if len(tasks) != 1 {
		t.Fatalf("main holds %d tasks, want one", len(tasks))
	}
	task := tasks[0]
	contexts, err := bctx.Unmarshal(task.Context)
	if err != nil {
		t.Fatalf("merged contexts: %v\n%s", err, task.Context)
	}
	var filters []string
	for _, c := range contexts {
		filters = append(filters, string(c.Item.FilterResult))
	}
	return task, filters
}

// TestContextBound: a waiting run absorbs its hook's events as they come;
// past the bound its contexts merge by object (each object's latest event
// replaces its earlier ones, in the order of the latest), contexts without
// an object merge only when identical, and the queue reports the run once.
func TestContextBound(t *testing.T) {
	now := time.Unix(0, 0)
	q := NewQueues("main")
	q.SetContextBound(600)
	for _, ev := range [][3]string{{"a", "1"}, {"b", "1"}, {"", "x"}, {"a", "2"}, {"", "x"}, {"", "y"}, {"b", "2"}, {"a", "3"}} {
		q.Append(eventTask("h", "cms", ev[0], ev[1]), now)
	}
	task, filters := waiting(t, q)
	got := fmt.Sprint(filters)
	if got != `["x" "y" "2" "3"]` || task.Contexts != 4 {
		t.Fatalf("contexts %s (count %d), want x, y, then b's and a's latest (4)", got, task.Contexts)
	}
	if merged := q.TakeMergedByObject(); len(merged) != 1 || merged[0] != "main" {
		t.Fatalf("merged %v, want [main]", merged)
	}
	q.Append(eventTask("h", "cms", "c", "1"), now)
	if merged := q.TakeMergedByObject(); len(merged) != 0 {
		t.Fatalf("the same waiting run reported again: %v", merged)
	}
}

// TestContextsUnboundedKeepEveryEvent: under the bound (and with none)
// every event is kept, in order.
func TestContextsUnboundedKeepEveryEvent(t *testing.T) {
	for _, bound := range []int{0, -1} {
		q := NewQueues("main")
		q.SetContextBound(bound)
		for i := range 50 {
			q.Append(eventTask("h", "cms", "a", fmt.Sprint(i)), time.Unix(0, 0))
		}
		task, filters := waiting(t, q)
		if task.Contexts != 50 || len(filters) != 50 || filters[49] != `"49"` {
			t.Fatalf("bound %d: %d contexts (count %d), want all 50 in order", bound, len(filters), task.Contexts)
		}
		if merged := q.TakeMergedByObject(); len(merged) != 0 {
			t.Fatalf("bound %d: merged %v", bound, merged)
		}
	}
}

// TestAppendContextsGrowsInPlace: absorbing n events copies the merged
// array O(log n) times, not once per event.
func TestAppendContextsGrowsInPlace(t *testing.T) {
	var merged []byte
	moves := 0
	one := bctx.Marshal([]bctx.Context{bctx.ScheduleTick("s", nil)})
	for i := range 1000 {
		before := merged
		merged = appendContexts(merged, one)
		if i > 1 && &before[0] != &merged[0] {
			moves++
		}
	}
	contexts, err := bctx.Unmarshal(merged)
	if err != nil || len(contexts) != 1000 {
		t.Fatalf("%d contexts, err %v", len(contexts), err)
	}
	if moves > 20 {
		t.Fatalf("the merged array moved %d times for 1000 events", moves)
	}
}
