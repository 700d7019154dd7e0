package httpauth

import (
	"crypto/sha256"
	"sync"
	"time"
)

// key is a token's and a path's hash: the cache holds no token.
type key [sha256.Size]byte

func keyOf(token, path string) key {
	return sha256.Sum256([]byte(path + "\x00" + token))
}

type entry struct {
	out     outcome
	expires time.Time
}

// cache keeps decisions until they expire, at most max of them: when full,
// expired ones go first, then the one that expires soonest.
type cache struct {
	mu      sync.Mutex
	now     func() time.Time
	max     int
	entries map[key]entry
}

func newCache(max int, now func() time.Time) *cache {
	return &cache{now: now, max: max, entries: map[key]entry{}}
}

func (c *cache) get(k key) (outcome, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[k]
	if !ok || !c.now().Before(e.expires) {
		return 0, false
	}
	return e.out, true
}

func (c *cache) put(k key, out outcome, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	if _, ok := c.entries[k]; !ok && len(c.entries) >= c.max {
		c.evict(now)
	}
	c.entries[k] = entry{out: out, expires: now.Add(ttl)}
}

// evict makes room for one entry.
func (c *cache) evict(now time.Time) {
	var soonest key
	var first time.Time
	for k, e := range c.entries {
		if !now.Before(e.expires) {
			delete(c.entries, k)
			continue
		}
		if first.IsZero() || e.expires.Before(first) {
			soonest, first = k, e.expires
		}
	}
	if len(c.entries) >= c.max {
		delete(c.entries, soonest)
	}
}

// size is how many decisions are kept.
func (c *cache) size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
