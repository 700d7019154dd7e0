package global

import (
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
)

// SyncWait is the wait of a GlobalSynchronization task, as pure state
// (LIFECYCLE-STEPS steps 1–3): the task ends, with the Synchronization
// runs of the main queue's bindings as its next steps, once it has the
// list of runs and those queued in named queues that wait
// (waitForSynchronization) have finished; the schedules start when every
// Synchronization run has finished, main's too.
type SyncWait struct {
	// Ended: the task has been answered; the wait goes on for main's runs.
	Ended  bool
	listed bool
	next   []messages.Task
	// left are the runs still to finish: the named queues' (which may
	// finish before the list arrives), then main's.
	left     map[messages.SyncRef]bool
	finished map[messages.SyncRef]bool
}

// SyncStep is what a SyncWait event asks of the actor.
type SyncStep struct {
	// EndTask answers the task: with Err (the wait is over), or with Next.
	EndTask bool
	Err     string
	Next    []messages.Task
	// Waiting is how many named queues' runs the task waits for, once
	// listed (for a log line).
	Waiting int
	// Done: the wait is over; with StartSchedules the schedules start.
	Done           bool
	StartSchedules bool
}

// NewSyncWait starts a wait.
func NewSyncWait() *SyncWait {
	return &SyncWait{left: map[messages.SyncRef]bool{}, finished: map[messages.SyncRef]bool{}}
}

// Listed takes the kube actor's list of Synchronization runs.
func (s *SyncWait) Listed(msg messages.KubeSyncRuns) SyncStep {
	if s.listed {
		return SyncStep{}
	}
	if msg.Err != "" {
		return SyncStep{EndTask: true, Err: "kubernetes bindings: " + msg.Err, Done: true}
	}
	for _, r := range msg.Runs {
		s.next = append(s.next, hookrun.SyncTaskOf(messages.OwnerGlobal, r))
	}
	for _, ref := range msg.Waited {
		if !s.finished[ref] {
			s.left[ref] = true
		}
	}
	s.listed = true
	step := s.progress()
	if !step.EndTask {
		step.Waiting = len(s.left)
	}
	return step
}

// Finished notes a finished task; only Synchronization runs count (a
// failure that allowFailure drops counts as finished).
func (s *SyncWait) Finished(t messages.Task) SyncStep {
	if !t.Sync {
		return SyncStep{}
	}
	ref := messages.SyncRef{Hook: t.Hook, Binding: t.Binding}
	s.finished[ref] = true
	delete(s.left, ref)
	return s.progress()
}

func (s *SyncWait) progress() SyncStep {
	if !s.listed || len(s.left) > 0 {
		return SyncStep{}
	}
	var step SyncStep
	if !s.Ended {
		for _, t := range s.next {
			s.left[messages.SyncRef{Hook: t.Hook, Binding: t.Binding}] = true
		}
		s.Ended = true
		step = SyncStep{EndTask: true, Next: s.next}
		if len(s.left) > 0 {
			return step
		}
	}
	step.Done, step.StartSchedules = true, true
	return step
}
