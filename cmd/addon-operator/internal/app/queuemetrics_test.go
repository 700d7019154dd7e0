package app

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/addon-actors/addon-operator/messages"
)

func snapshot(queues map[string][]messages.Task) messages.QueueSnapshot {
	var s messages.QueueSnapshot
	for _, name := range []string{"main", "side"} {
		if tasks, ok := queues[name]; ok {
			s.Queues = append(s.Queues, messages.QueueState{Name: name, Tasks: tasks})
		}
	}
	return s
}

// The head's series follows the head: a new head replaces it, an empty
// queue or one no longer published has none; task kinds get the original's
// task types.
func TestQueueHeadInfoFollowsTheHead(t *testing.T) {
	m := newMetrics(prometheus.NewRegistry(), "p_")
	hookRun := messages.Task{ID: 1, Kind: messages.TaskModuleHook, Module: "alpha", Hook: "hooks/watch"}
	converge := messages.Task{ID: 2, Kind: messages.TaskDiscover}
	global := messages.Task{ID: 3, Kind: messages.TaskGlobalHook, Hook: "tick"}
	steps := []struct {
		queues map[string][]messages.Task
		want   string
	}{
		{map[string][]messages.Task{"main": {hookRun, converge}, "side": {global}}, `
p_tasks_queue_head_info{hook="hooks/watch",module="alpha",queue="main",task_type="ModuleHookRun"} 1
p_tasks_queue_head_info{hook="tick",module="",queue="side",task_type="GlobalHookRun"} 1
`},
		{map[string][]messages.Task{"main": {converge}, "side": {}}, `
p_tasks_queue_head_info{hook="",module="",queue="main",task_type="ConvergeModules"} 1
`},
		{map[string][]messages.Task{"main": {}, "side": {global}}, `
p_tasks_queue_head_info{hook="tick",module="",queue="side",task_type="GlobalHookRun"} 1
`},
		{map[string][]messages.Task{"main": {}}, ``},
	}
	for i, st := range steps {
		m.queues(snapshot(st.queues))
		if err := testutil.CollectAndCompare(m.headInfo.vec, strings.NewReader(header(st.want, "p_tasks_queue_head_info", headInfoHelp)),
			"p_tasks_queue_head_info"); err != nil {
			t.Errorf("step %d: %v", i, err)
		}
	}
}

// A module's series changes with its enabled state and goes with it.
func TestModuleInfoIsRebuilt(t *testing.T) {
	mi := newModuleInfo("p_")
	mi.set([]string{"alpha", "beta"}, []string{"alpha"})
	mi.set([]string{"beta", "gamma"}, []string{"beta"})
	want := `
p_mm_module_info{critical="true",enabled="false",module="gamma"} 1
p_mm_module_info{critical="true",enabled="true",module="beta"} 1
`
	if err := testutil.CollectAndCompare(mi.vec, strings.NewReader(header(want, "p_mm_module_info", moduleInfoHelp)),
		"p_mm_module_info"); err != nil {
		t.Error(err)
	}
}

// header prefixes the text exposition of a gauge's series with its HELP
// and TYPE lines (no series: nothing).
func header(series, name, help string) string {
	if strings.TrimSpace(series) == "" {
		return ""
	}
	return "# HELP " + name + " " + help + "\n# TYPE " + name + " gauge" + series
}

// Every task kind gets the name of the original's task type it stands for.
func TestTaskTypeNamesTheOriginalsTaskTypes(t *testing.T) {
	for kind, want := range map[messages.TaskKind]string{
		messages.TaskGlobalBinding: "GlobalHookRun", messages.TaskGlobalHook: "GlobalHookRun",
		messages.TaskGlobalSync: "GlobalHookEnableKubernetesBindings", messages.TaskModuleRun: "ModuleRun",
		messages.TaskModuleDelete: "ModuleDelete", messages.TaskModuleHook: "ModuleHookRun",
		messages.TaskReloadAll: "ConvergeModules", messages.TaskDiscover: "ConvergeModules",
		messages.TaskModulePurge: "ModulePurge", messages.TaskConvergeDone: "ConvergeModules",
	} {
		if got := taskType(kind); got != want {
			t.Errorf("taskType(%s) = %q, want %q", kind, got, want)
		}
	}
}
