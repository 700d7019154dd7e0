package module

import (
	"encoding/json"
	"fmt"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

// startup is the sub-machine of the module's start: its hooks configured
// (or failed to be, then configured again after the retry policy's delay
// until they are), discovery's question, the tasks of a module that failed
// to start. It holds whether the hooks are configured, the error that left
// the module out and how many times in a row they failed to be, the
// discovery that waits for the enabled script, and whether the module's
// dir is gone.
type startup struct {
	name          string
	enabledScript bool
	// retries: a failed configuration is tried again (a clock and a
	// retry policy).
	retries    bool
	configured bool
	err        error
	failures   int
	checkBy    *actor.PID
	removed    bool
}

// lifeEvent is an input of startup.
type lifeEvent interface{ lifeEvent() }

// hooksConfigured: the hooks' configuration ended, with Err.
type hooksConfigured struct{ Err error }

func (hooksConfigured) lifeEvent() {}

// enabledAsked is discovery's question, with the enabled script's
// input.
type enabledAsked struct {
	From  *actor.PID
	Input values.HookInput
}

func (enabledAsked) lifeEvent() {}

// taskOffered is a task for a module whose hooks are configured.
type taskOffered struct{ Assigned hookrun.Assigned }

func (taskOffered) lifeEvent() {}

// removed: the module's dir is gone.
type removed struct{}

func (removed) lifeEvent() {}

// lifeEffect is an output of startup.
type lifeEffect interface{ lifeEffect() }

// StartFailed: the hooks could not be configured, the module is left
// out; the actor logs and counts it.
type StartFailed struct{ Err error }

func (StartFailed) lifeEffect() {}

// Ready tells the operator the module has started (Err: it failed to;
// no Err after a failure: it has now).
type Ready struct{ Err string }

func (Ready) lifeEffect() {}

// ArmReconfigure arms the retry of the hooks' configuration after the
// retry policy's delay for this failure (Attempt counts from 1).
type ArmReconfigure struct{ Attempt int }

func (ArmReconfigure) lifeEffect() {}

// Reconfigure asks the worker to configure the hooks again.
type Reconfigure struct{}

func (Reconfigure) lifeEffect() {}

// Recovered: the hooks are configured after Failures failures; the
// actor logs it and clears the failure's metric.
type Recovered struct{ Failures int }

func (Recovered) lifeEffect() {}

// TaskDropped answers a task of a module that failed to start: it is
// dropped, not failed (its retry could never succeed).
type TaskDropped struct {
	To   *actor.PID
	Task messages.Task
	Err  error
}

func (TaskDropped) lifeEffect() {}

// RunEnabledScript runs the enabled script with the values given
// (EnabledScriptDone follows).
type RunEnabledScript struct{ Values, ConfigValues []byte }

func (RunEnabledScript) lifeEffect() {}

// EnabledReply answers discovery.
type EnabledReply struct {
	To      *actor.PID
	Checked messages.EnabledChecked
}

func (EnabledReply) lifeEffect() {}

// lifeState is the module's phase and last error as its start leaves
// them; the core publishes them.
type lifeState struct{ Phase, LastError string }

func (lifeState) lifeEffect() {}

// taskAccepted: the core runs the task.
type taskAccepted struct{ Assigned hookrun.Assigned }

func (taskAccepted) lifeEffect() {}

// Step takes ev and returns what it calls for.
func (s *startup) Step(ev lifeEvent) []lifeEffect {
	switch e := ev.(type) {
	case hooksConfigured:
		return s.hooksConfigured(e.Err)
	case ReconfigureDue:
		if s.removed || s.err == nil { // gone, or configured meanwhile
			return nil
		}
		return []lifeEffect{Reconfigure{}}
	case enabledAsked:
		return s.enabledAsked(e)
	case EnabledScriptDone:
		return s.enabledScriptDone(e)
	case taskOffered:
		if s.err != nil {
			return []lifeEffect{TaskDropped{To: e.Assigned.Queue, Task: e.Assigned.Task, Err: s.err}}
		}
		return []lifeEffect{taskAccepted(e)}
	case removed:
		s.removed = true
		return nil
	default:
		panic(fmt.Sprintf("module: event %T has no case in startup.Step", ev))
	}
}

// hooksConfigured reports ready, or the failure that leaves the module
// out. A failure is tried again after the retry policy's delay (a hook's
// --config may fail for a while: an apiserver it asks, a file not there
// yet); the operator hears of the first failure, and of the success that
// brings the module back.
func (s *startup) hooksConfigured(err error) []lifeEffect {
	again := s.configured
	s.configured = true
	if err == nil {
		var out []lifeEffect
		if s.err != nil {
			out = append(out, Recovered{Failures: s.failures})
		}
		s.err, s.failures = nil, 0
		return append(out, lifeState{Phase: board.PhaseIdle}, Ready{})
	}
	s.err = err
	s.failures++
	out := []lifeEffect{StartFailed{Err: err}, lifeState{Phase: board.PhaseFailed, LastError: err.Error()}}
	if !again {
		out = append(out, Ready{Err: err.Error()})
	}
	if s.retries {
		out = append(out, ArmReconfigure{Attempt: s.failures})
	}
	return out
}

// enabledAsked answers discovery: a module that failed to start is
// unavailable, one without an enabled script is enabled; otherwise the
// script runs, and sees the modules enabled before this one in
// global.enabledModules.
func (s *startup) enabledAsked(e enabledAsked) []lifeEffect {
	reply := messages.EnabledChecked{Module: s.name}
	switch {
	case s.err != nil:
		reply.Unavailable, reply.Err = true, s.err.Error()
	case !s.enabledScript:
		reply.Enabled = true
	default:
		vals, cfg, err := encodeInput(e.Input)
		if err == nil {
			s.checkBy = e.From
			return []lifeEffect{RunEnabledScript{Values: vals, ConfigValues: cfg}}
		}
		reply.Err = err.Error()
	}
	return []lifeEffect{EnabledReply{To: e.From, Checked: reply}}
}

// encodeInput is the enabled script's values and config values as JSON.
func encodeInput(in values.HookInput) (vals, cfg []byte, err error) {
	if vals, err = json.Marshal(in.Values); err != nil {
		return nil, nil, err
	}
	if cfg, err = json.Marshal(in.ConfigValues); err != nil {
		return nil, nil, err
	}
	return vals, cfg, nil
}

// enabledScriptDone answers the discovery that ran the script.
func (s *startup) enabledScriptDone(e EnabledScriptDone) []lifeEffect {
	to := s.checkBy
	if to == nil {
		return nil
	}
	s.checkBy = nil
	reply := messages.EnabledChecked{Module: s.name, Enabled: e.Enabled}
	if e.Err != nil {
		reply.Err = e.Err.Error()
	}
	return []lifeEffect{EnabledReply{To: to, Checked: reply}}
}

func (ReconfigureDue) lifeEvent()    {}
func (EnabledScriptDone) lifeEvent() {}
