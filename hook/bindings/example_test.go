package bindings_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bindings"
)

// A binding that names no queue runs in the main one.
func ExampleQueueName() {
	fmt.Println(bindings.QueueName(""), bindings.QueueName("side"))
	// Output: main side
}
