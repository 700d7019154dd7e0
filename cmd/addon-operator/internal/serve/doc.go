// Package serve runs the operator's HTTP servers (the TCP port and the
// debug unix socket) with limits that free every connection a client
// leaves hanging: one that never sends its request, one that never reads
// the answer, one that stays idle.
package serve
