package cluster

import (
	"context"
	"testing"
	"time"
)

// TestContext returns a context that ends after limit or when the test
// ends, whichever comes first: the bound of a test's calls to a cluster,
// with no cancel for the test to defer.
func TestContext(t testing.TB, limit time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), limit)
	t.Cleanup(cancel)
	return ctx
}
