// Package hookexec implements the hook protocol of spec/HOOKS.md, MODULES.md
// and VALUES.md with no actors inside; the global and module actors call it
// through a narrow interface (HookRunner, or a subset they declare).
//
//   - Discovery: DiscoverGlobalHooks, DiscoverModuleHooks and Discover find
//     every executable file under a root (recursively, symlinks followed,
//     dot-files and lib/ skipped), named by their path relative to the root.
//   - Batch hooks (module-sdk, spec/UPSTREAM.md §1): Runner.DiscoverHooks
//     discovers as above, probes each compiled extensionless executable
//     with `hook list` (empty environment, Options.ProbeTimeout), and
//     replaces a batch executable by its nested hooks, read once with
//     `hook config` (hookconfig.ParseBatch). A nested Hook carries its
//     Config, its run arguments (`hook run N`, `hook ready`) and its extra
//     variables (MODULE_NAME …), so running it is the same as a shell hook.
//   - Configuration: Runner.Config runs `hook --config` in the hook's
//     directory with WORKING_DIR set and parses the JSON or YAML it prints,
//     v1 or the older form, with package hookconfig (into the model of hook/bindings).
//   - Running: Runner.Run writes the binding context (built with package
//     bctx), values and config values into a private temp directory, runs
//     the hook with the operator's environment (optionally restricted by
//     HOOK_ENV_ALLOWLIST) plus the files' variables, streams its output to
//     slog line by line, and returns its exit status, process figures, values
//     and config values patches (checked against a PatchScope), and metric
//     operations. A webhook run (Request.WebhookResponses) also gets the
//     response files of shell-operator's webhook bindings, whose content
//     it returns as written. Runner.RunEnabled does the same for a module's enabled
//     script and reads its true/false answer.
//   - The output files a hook writes are read bounded (readOutput): never
//     through a symlink, only a regular file, at most its kind's cap
//     (OutputCaps); past it the run fails with ErrOutputTooLarge naming
//     the file's variable, its path and the cap.
//   - A hook runs in its own process group: cancellation or a timeout kills
//     the group, and so does the hook's exit, so no run leaves processes.
//
// Applying patches to values is not here: that is package values.
package hookexec
