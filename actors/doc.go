// Package actors is the root of the operator's actor tree. Each sub-package
// owns one actor kind: operator (boot sequence and converge state machine),
// config (ConfigMap/addon-operator as source and sink), queue (main and named
// queues with retry-with-delay), global (global hooks and values), module (one
// actor per module), kube (Kubernetes event monitors) and schedule (cron
// ticks). actors/values holds the pure values logic the global and module
// actors own, and actors/inspect the mailbox and state inspector behind the
// debug endpoint.
package actors
