package module_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/addon-actors/addon-operator/actors/module"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
)

// A module run of a chartless module whose beforeHelm hook sets a value:
// the queue (a probe) gives the module its task and gets TaskDone back; the
// module's values are published on the board.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	tmp, err := os.MkdirTemp("", "module-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "010-demo")
	hook := "#!/usr/bin/env bash\nif [[ ${1:-} == --config ]]; then echo '{\"configVersion\":\"v1\",\"beforeHelm\":1}'; exit 0; fi\n" +
		"echo '[{\"op\":\"add\",\"path\":\"/demo/replicas\",\"value\":2}]' > $VALUES_JSON_PATCH_PATH\n"
	if err := os.MkdirAll(filepath.Join(dir, "hooks"), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hooks", "set-replicas"), []byte(hook), 0o755); err != nil {
		panic(err)
	}
	names, _ := values.ParseModuleDir("010-demo")
	runner := hookexec.NewRunner(hookexec.Options{TmpDir: tmp})
	defer runner.Close()

	kit := actortest.New(t)
	queue, operator, b := kit.NewProbe(), kit.NewProbe(), board.New()
	pid := kit.Spawn("module", module.New(module.Options{Definition: layout.Definition{Names: names, Dir: dir},
		Runner: runner, Board: b, Clock: kit.Clock,
		Siblings: hookrun.Siblings{Report: operator.PID, Config: queue.PID, Queue: queue.PID}}))
	actortest.Expect[messages.OwnerReady](operator, 10*time.Second)

	task := messages.NewModuleRun("demo", "example")
	task.ID = 1
	queue.Send(pid, messages.RunTask{Task: task})
	done := actortest.Expect[messages.TaskDone](queue, 10*time.Second)
	fmt.Printf("task %d err=%q\n", done.ID, done.Err)
	snap, _ := b.ModuleValues("demo")
	fmt.Println(values.Checksum(snap.Values) == values.Checksum(map[string]any{"replicas": 2}))
	// Output:
	// task 1 err=""
	// true
}
