package global_test

import (
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/actors/global"
	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/test/actortest"
)

// spawnGlobal starts the global actor on the hooks in dir, run by a real
// runner, with one probe as every sibling (operator, config, queue,
// schedule and kube).
func spawnGlobal(t *testing.T, dir string) (*actortest.Kit, *actortest.Probe, *actor.PID) {
	t.Helper()
	runner := hookexec.NewRunner(hookexec.Options{TmpDir: t.TempDir()})
	t.Cleanup(runner.Close) // before its temp dir goes: it may be making run dirs ahead
	t.Cleanup(runner.Close)
	kit := actortest.New(t)
	probe := kit.NewProbe()
	peers := hookrun.Siblings{Report: probe.PID, Config: probe.PID, Queue: probe.PID, Schedule: probe.PID, Kube: probe.PID}
	pid := kit.Spawn("global", global.New(global.Options{HooksDir: dir, Runner: runner, Board: board.New(), Siblings: peers}))
	return kit, probe, pid
}
