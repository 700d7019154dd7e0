// Package operator is the root of the actor tree. It spawns its children in
// the order given (config, queue, global, modules, kube, schedule, ...),
// supervises them with the panic guardian, and on Shutdown stops them one by
// one in reverse order, waiting for each to terminate, so that a graceful
// stop really leaves no actor behind. System wraps the actor system with the
// process's slog logger and the inspector, and stops the whole tree.
package operator
