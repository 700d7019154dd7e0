package schedule_test

import (
	"fmt"
	"time"

	"github.com/addon-actors/addon-operator/actors/schedule"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// A hook's schedule binding, fired by a fake clock: each tick queues a run
// of the hook with a Schedule binding context.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	kit := actortest.New(t)
	queue := kit.NewProbe()
	pid := kit.Spawn("schedule", schedule.New(schedule.Options{Clock: kit.Clock, Owner: actortest.EveryOwner(queue.PID)}), actortest.Sync())

	cfg, err := hookconfig.Parse([]byte(`{"configVersion":"v1","schedule":[{"name":"every-10s","crontab":"*/10 * * * * *"}]}`),
		bindings.ScopeGlobal)
	if err != nil {
		panic(err)
	}
	kit.Send(pid, messages.WatchSchedules{Owner: messages.OwnerGlobal,
		Schedules: []messages.HookSchedule{{Hook: "report.sh", Version: cfg.Version, Binding: cfg.Schedules[0]}}})

	kit.Clock.Advance(20 * time.Second)
	for range 2 {
		task := expectTask(queue, time.Second).Tasks[0]
		fmt.Println(task.Hook, task.Queue, string(task.Context))
	}
	// Output:
	// report.sh main [{"binding":"every-10s","type":"Schedule"}]
	// report.sh main [{"binding":"every-10s","type":"Schedule"}]
}
