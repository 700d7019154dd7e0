package bctx

import (
	"bufio"
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

// Encode writes the array to w as Marshal would, and returns the total
// bytes and the bytes of each binding's contexts.
func (a Array) Encode(w io.Writer) (int64, Sizes, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	sizes := Sizes{}
	total := int64(2)
	buf := make([]byte, 0, 4<<10)
	if err := bw.WriteByte('['); err != nil {
		return 0, sizes, err
	}
	for i, c := range a {
		buf = buf[:0]
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = c.appendJSON(buf)
		if _, err := bw.Write(buf); err != nil {
			return total, sizes, err
		}
		sizes[c.Binding] += int64(len(buf))
		total += int64(len(buf))
	}
	if err := bw.WriteByte(']'); err != nil {
		return total, sizes, err
	}
	return total, sizes, bw.Flush()
}
