// Package scenario holds what the operator's scenario tests share, in
// process (cmd/addon-operator/internal/app) and through the binary
// (test/e2e): bash hooks that record what they saw into $RECORD_DIR, a
// tree of modules written to disk, the ConfigMap addon-operator read and
// written through client-go, JSON compared by value, and helm's record of
// a release read and forged (with chartrun's tests). For the binary it
// also holds what test/e2e and the bench programs (bench/converge,
// bench/watch) share: building it, its environment (Launch), and for the
// benches their setup (Bench) and a polled operator process (Process).
package scenario
