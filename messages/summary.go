package messages

import "strconv"

// Summary methods name a message in a few words for the actors' flight
// recorder (supervision/inspect), which calls them after the message was
// handled and cuts them to a bounded length.

// Summary is "#ID KIND subject (reason)": the task's module or hook.
func (t Task) Summary() string {
	s := "#" + strconv.FormatUint(t.ID, 10) + " " + string(t.Kind)
	switch {
	case t.Hook != "":
		s += " " + t.Hook
	case t.Module != "":
		s += " " + t.Module
	}
	if t.Reason != "" {
		s += " (" + t.Reason + ")"
	}
	return s
}

// Summary is the task's.
func (m RunTask) Summary() string { return m.Task.Summary() }

// Summary is "#ID done" or "#ID failed: ERR".
func (m TaskDone) Summary() string {
	s := "#" + strconv.FormatUint(m.ID, 10)
	if m.Err != "" {
		return s + " failed: " + m.Err
	}
	return s + " done"
}

// Summary is "N tasks, first: TASK".
func (m Enqueue) Summary() string {
	if len(m.Tasks) == 0 {
		return "no task"
	}
	return strconv.Itoa(len(m.Tasks)) + " tasks, first: " + m.Tasks[0].Summary()
}

// Summary is "HOOK BINDING: SOURCE".
func (m HookEvent) Summary() string { return m.Hook + " " + m.Binding + ": " + m.Source }
