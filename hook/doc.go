// Package hook groups the hook data model: hook/bindings (what a hook
// declares) and hook/bctx (the binding contexts it reads). Both are plain
// data and pure functions; hookexec runs hooks, messages may carry them.
package hook
