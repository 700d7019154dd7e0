// Package messages is the vocabulary the actors speak: plain value structs,
// one file per topic, with no behaviour. A message is never mutated after it
// is sent; constructors copy the slices and maps they are given.
package messages
