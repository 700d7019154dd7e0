// Package scenario holds what the operator's scenario tests share, in
// process (cmd/addon-operator/internal/app) and through the binary
// (test/e2e): bash hooks that record what they saw into $RECORD_DIR, the
// ConfigMap addon-operator read and written through client-go, and JSON
// compared by value.
package scenario
