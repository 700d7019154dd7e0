// Package owner holds what the global and module actors share as owners of
// hooks and values: the set of configured hooks ordered by binding, the
// worker child that does their blocking I/O (hook runs, enabled scripts,
// helm) so that the owner's mailbox stays free, the binding context and
// request of an ORDER binding run, and applying a hook's result to a
// values scope.
package owner
