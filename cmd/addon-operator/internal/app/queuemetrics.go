package app

import (
	"slices"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/addon-actors/addon-operator/messages"
)

// taskType is a task's task_type label in tasks_queue_head_info: the name
// the original addon-operator gives the task type that our kind stands
// for. Kinds that are steps of one original task get that task's name; a
// kind with no counterpart keeps its own name.
func taskType(k messages.TaskKind) string {
	switch k {
	case messages.TaskGlobalHook, messages.TaskGlobalBinding:
		// onStartup, beforeAll and afterAll expand into one GlobalHookRun
		// per hook, as the original queues them.
		return "GlobalHookRun"
	case messages.TaskGlobalSync:
		return "GlobalHookEnableKubernetesBindings"
	case messages.TaskReloadAll, messages.TaskDiscover, messages.TaskConvergeDone:
		// The start, the module discovery and the end of one converge.
		return "ConvergeModules"
	default:
		// ModuleRun, ModuleDelete, ModuleHookRun and ModulePurge have the
		// original's names already.
		return string(k)
	}
}

// headLabels are the labels of tasks_queue_head_info for one head task, in
// the order queue, module, task_type, hook.
type headLabels [4]string

const headInfoHelp = "1 for the task at the head of each non-empty queue (module is empty for global and operator tasks)."

// headInfo is tasks_queue_head_info{queue,module,task_type,hook}: one
// series per non-empty queue, for its head task. It is only touched from
// the queue actor's publish, so it needs no lock; the vector is written
// only when a head's labels change, which keeps publishing cheap.
type headInfo struct {
	vec   *prometheus.GaugeVec
	heads map[string]headLabels // queue -> labels of its head's series
}

func newHeadInfo(prefix string) *headInfo {
	return &headInfo{heads: map[string]headLabels{},
		vec: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: prefix + "tasks_queue_head_info", Help: headInfoHelp},
			[]string{"queue", "module", "task_type", "hook"})}
}

// publish sets the series of every queue in s from its head; the series of
// queues that became empty, changed their head or are no longer in s go.
func (h *headInfo) publish(s messages.QueueSnapshot) {
	busy := 0
	for _, q := range s.Queues {
		if len(q.Tasks) == 0 {
			h.drop(q.Name)
			continue
		}
		busy++
		head := q.Tasks[0]
		h.set(headLabels{q.Name, head.Module, taskType(head.Kind), head.Hook})
	}
	// heads now holds the busy queues of s and any queue that left s; the
	// queue never drops a queue today, so this stays a count comparison.
	if len(h.heads) > busy {
		h.dropAbsent(s)
	}
}

func (h *headInfo) dropAbsent(s messages.QueueSnapshot) {
	for queue := range h.heads {
		if !slices.ContainsFunc(s.Queues, func(q messages.QueueState) bool { return q.Name == queue }) {
			h.drop(queue)
		}
	}
}

func (h *headInfo) set(l headLabels) {
	old, had := h.heads[l[0]]
	if had && old == l {
		return
	}
	if had {
		h.vec.DeleteLabelValues(old[:]...)
	}
	h.heads[l[0]] = l
	h.vec.WithLabelValues(l[:]...).Set(1)
}

func (h *headInfo) drop(queue string) {
	if old, had := h.heads[queue]; had {
		h.vec.DeleteLabelValues(old[:]...)
		delete(h.heads, queue)
	}
}
