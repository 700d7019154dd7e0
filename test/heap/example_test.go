package heap_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/test/heap"
)

// A slice of 1,000 int64s keeps 8,000 bytes alive (and the collector may
// count a little of its own bookkeeping).
func ExampleHeldBy() {
	held := heap.HeldBy(func() any { return make([]int64, 1000) })
	fmt.Println(held >= 8000 && held < 9000)
	// Output: true
}
