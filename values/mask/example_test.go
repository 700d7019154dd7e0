package mask_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/values/mask"
)

func ExamplePaths_Document() {
	paths := mask.Paths{{"db", "password"}}
	section := map[string]any{"db": map[string]any{"host": "db.local", "password": "secret"}}
	fmt.Println(paths.Document(section))
	fmt.Println(paths.Secrets(section).Text("postgres://app:secret@db.local"))
	// Output:
	// map[db:map[host:db.local password:(6 bytes, sha256:2bb80d53)]]
	// postgres://app:(6 bytes, sha256:2bb80d53)@db.local
}
