package httpauth

import (
	"fmt"
	"testing"
	"time"
)

// The cache keeps at most its bound, dropping expired decisions first and
// then the one that expires soonest; a decision past its TTL is gone.
func TestCacheIsBoundedAndExpires(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := newCache(4, func() time.Time { return now })
	long := keyOf("long-lived", "/metrics")
	c.put(long, allowed, time.Hour)
	for i := range 100 {
		c.put(keyOf(fmt.Sprintf("junk-%d", i), "/metrics"), unauthenticated, time.Duration(i+1)*time.Second)
		if n := c.size(); n > 4 {
			t.Fatalf("after %d decisions the cache holds %d, bound 4", i+2, n)
		}
	}
	if out, ok := c.get(long); !ok || out != allowed {
		t.Fatal("the decision that expires last was dropped for ones that expire sooner")
	}
	if out, ok := c.get(keyOf("junk-99", "/metrics")); !ok || out != unauthenticated {
		t.Fatal("the latest decision is not kept")
	}
	if _, ok := c.get(keyOf("long-lived", "/queue")); ok {
		t.Fatal("a token's decision on one path answered for another")
	}
	now = now.Add(time.Hour)
	if _, ok := c.get(long); ok {
		t.Fatal("a decision is kept past its TTL")
	}
}
