// Package actors is the root of the operator's actor tree. Each sub-package
// owns one actor kind: operator (boot sequence and converge state machine),
// config (ConfigMap/addon-operator as source and sink), queue (main and named
// queues with retry-with-delay), global (global hooks and values), module (one
// actor per module), kube (Kubernetes event monitors) and schedule (cron
// ticks). actors/inspect is the mailbox and state inspector behind the debug
// endpoint. The pure values logic the global and module actors own is the
// top-level package values, below the actors and the messages.
package actors
