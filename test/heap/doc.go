// Package heap measures, in tests and benchmarks, the heap that a value
// keeps alive: what a structure costs per module or per object.
package heap
