// Package debugapi is the debug API on the operator's unix socket
// ($DEBUG_UNIX_SOCKET, mode 0600): queues, global and module values,
// modules with their state, a module's rendered manifests, hook run
// counts, the actor inspector with each actor's flight recorder
// (history.go: its last handled messages), and each module's "why"
// (why.go): the chain of records its owners published that decided its
// state. Values are served here only, never on the TCP port. Client is
// what the debug CLI uses to read it. POST /plan answers what a candidate
// ConfigMap would do (package whatif).
package debugapi
