package global_test

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/addon-actors/addon-operator/actors/global"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// The queue (a probe) runs the global onStartup binding: the global actor
// expands it into one task per hook, then runs the hook, whose values
// patch is published on the board.
func Example() {
	t := &actortest.Standalone{}
	defer t.Close()
	dir := hooksDir(t, map[string]string{"startup.sh": "#!/bin/sh\n" +
		"if [ \"$1\" = --config ]; then echo '{\"configVersion\":\"v1\",\"onStartup\":1}'; exit 0; fi\n" +
		"echo '[{\"op\":\"add\",\"path\":\"/global/ready\",\"value\":true}]' > $VALUES_JSON_PATCH_PATH\n"})
	runner := hookexec.NewRunner(hookexec.Options{TmpDir: dir})
	defer runner.Close()

	kit := actortest.New(t)
	queue, operator, b := kit.NewProbe(), kit.NewProbe(), board.New()
	pid := kit.Spawn("global", global.New(global.Options{HooksDir: dir, Runner: runner, Board: b,
		Siblings: hookrun.Siblings{Report: operator.PID, Config: queue.PID, Queue: queue.PID}}))
	actortest.Expect[messages.OwnerReady](operator, 10*time.Second)

	queue.Send(pid, messages.RunTask{Task: messages.Task{ID: 1, Kind: messages.TaskGlobalBinding, Binding: "onStartup"}})
	expanded := actortest.Expect[messages.TaskDone](queue, 10*time.Second)
	next := expanded.Next[0]
	fmt.Println(expanded.ID, next.Kind, next.Hook)
	next.ID = 2
	queue.Send(pid, messages.RunTask{Task: next})
	done := actortest.Expect[messages.TaskDone](queue, 10*time.Second)
	fmt.Printf("%d err=%q ready=%v\n", done.ID, done.Err, b.Global().Values.(map[string]any)["ready"])
	// Output:
	// 1 GlobalHookRun startup.sh
	// 2 err="" ready=true
}

// hooksDir is a global hooks dir holding hooks (name to script), removed
// when t closes.
func hooksDir(t *actortest.Standalone, hooks map[string]string) string {
	dir, err := os.MkdirTemp("", "global-example")
	if err != nil {
		panic(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for name, script := range hooks {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			panic(err)
		}
	}
	return dir
}
