package main

import cmap "github.com/orcaman/concurrent-map"

// registryShards is how many shards each map of protoactor's process
// registry has. protoactor spreads its registry over 1,024 maps already
// (its own striping), and the library's default of 32 shards each is
// 32,768 locked maps, 4.5 MB of heap held for the process's life whatever
// the number of actors: 4.5 KB per module at 1,000 modules. One shard
// keeps the 1,024 locks of the striping.
const registryShards = 1

// tuneRegistry sets the shards before any actor system exists: a map
// made with more shards than the setting later says still works (it uses
// its first shards), one made with fewer would not, so it is set once, at
// the start of main, and never raised.
func tuneRegistry() {
	cmap.SHARD_COUNT = registryShards
}
