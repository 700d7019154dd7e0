// Package inspect shows every actor from the outside, without asking it: a
// busy or stuck actor stays visible. Actors spawned with a Registry's
// Mailbox record their path, kind, parent, exact mailbox length
// (UserMessageCount of the real mailbox), high-water mark, messages
// processed, the message being handled and since when, restarts, the last
// panic or reported error, and a behaviour name and state summary that the
// actor itself publishes with Report. Each record also keeps a flight
// recorder: the last HistorySize messages the actor handled (type, summary,
// time, duration, outcome), written after handling on the actor's own
// goroutine into a ring of fixed-size entries (grown by doubling up to
// HistorySize, then reused), read with History, and added to a
// panic's log record through LastHandled. Snapshot feeds the debug endpoint and
// Collector the actor_* Prometheus metrics on the operator's own registry.
package inspect
