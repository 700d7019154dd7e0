// Package hookexec implements the hook protocol with no actors inside: it
// discovers global and module hooks, runs them with --config and parses both
// binding configuration formats, runs a hook with its temporary files and
// environment, and reads back what it returns (values and config patches,
// metrics, the enabled result).
package hookexec
