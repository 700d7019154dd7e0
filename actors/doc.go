// Package actors is the root of the operator's actor tree; it holds
// nothing but this documentation. Each sub-package is one actor kind:
// operator (the root: boot sequence, lifecycle and converge), config
// (ConfigMap/addon-operator as source and sink; it hands each module its
// section), queue (main and named queues with retry-with-delay, and the hold
// of event runs while discovery fails), global (global hooks and values),
// module (one actor per module), kube (Kubernetes event monitors and
// snapshots), schedule (cron ticks) and worker (an owner's child that runs
// hooks and helm off the owner's mailbox). The operator, queue, global and
// module actors are shells around pure cores: Core.Step takes an event of a
// closed set and returns effects of a closed set, which the shell carries
// out (the kube, schedule, config and worker actors are I/O: informers,
// cron, the ConfigMap, processes). What is not an actor lives outside:
// the data model (values, hook, layout), messages, board, hookrun, hookexec,
// chartrun and supervision.
package actors
