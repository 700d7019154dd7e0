package webhook_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/webhook"
)

func ExampleChain() {
	bindings := []webhook.Conversion{
		{Hook: "a.sh", Rules: []webhook.ConversionRule{{From: "v1", To: "v2"}}},
		{Hook: "b.sh", Rules: []webhook.ConversionRule{{From: "stable.example.com/v2", To: "stable.example.com/v3"}}},
	}
	steps, ok := webhook.Chain(bindings, "stable.example.com/v1", "stable.example.com/v3")
	for _, s := range steps {
		fmt.Println(s.Binding.Hook, s.From, "→", s.To)
	}
	fmt.Println(ok, webhook.AdmissionPath("my-module", "private-repo-policy.example.com"))
	// Output:
	// a.sh v1 → v2
	// b.sh stable.example.com/v2 → stable.example.com/v3
	// true /my-module/private-repo-policy-example-com
}
