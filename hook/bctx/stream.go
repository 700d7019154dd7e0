package bctx

import (
	"io"
)

// Array is a v1 binding context array to be written as a stream: the
// contexts of a run, whose snapshots are shared slices (Refill shares one
// snapshot among every context that carries it). Encode writes it context
// by context, so that memory holds one encoded context at a time, not the
// whole array: a run that merged hundreds of Event contexts, each carrying
// a snapshot of 10,000 objects, writes a file of hundreds of MB without
// holding it.
type Array []Context

// Sizes are the bytes an encoded array spent on each binding's contexts.
type Sizes map[string]int64

// Largest is the binding whose contexts took the most bytes, and that
// number.
func (s Sizes) Largest() (string, int64) {
	var name string
	var most int64 = -1
	for b, n := range s {
		if n > most || n == most && b < name {
			name, most = b, n
		}
	}
	return name, most
}

// spillAt is how many encoded bytes Encode holds before it writes them.
const spillAt = 64 << 10

// Encode writes the array to w as Marshal would, and returns the total
// bytes and the bytes of each binding's contexts. It holds about spillAt
// bytes of the encoding at a time, in one buffer, and writes it out when it
// passes that size, in a context or between contexts: a run's file of a
// 10,000 object snapshot was a 250 KB context grown by doubling, the larger
// part of a storm's garbage, and many small contexts still go out in few
// writes.
func (a Array) Encode(w io.Writer) (int64, Sizes, error) {
	e := arrayEncoder{w: w}
	sizes := Sizes{}
	buf := append(make([]byte, 0, spillAt+8<<10), '[')
	for i, c := range a {
		start := e.written + int64(len(buf))
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = e.spill(c.appendJSON(buf, e.spill))
		sizes[c.Binding] += e.written + int64(len(buf)) - start
	}
	e.write(append(buf, ']'))
	return e.written, sizes, e.err
}

// arrayEncoder writes what Encode spills; after an error it writes no more
// (written still counts the bytes encoded).
type arrayEncoder struct {
	w       io.Writer
	written int64
	err     error
}

// spill writes buf out once it holds spillAt bytes.
func (e *arrayEncoder) spill(buf []byte) []byte {
	if len(buf) < spillAt {
		return buf
	}
	return e.write(buf)
}

// write writes buf out and returns it emptied.
func (e *arrayEncoder) write(buf []byte) []byte {
	if e.err == nil {
		_, e.err = e.w.Write(buf)
	}
	e.written += int64(len(buf))
	return buf[:0]
}
