package bctx_test

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

func ExampleMarshal() {
	pod := bctx.ObjectAndFilterResult{
		Object:       json.RawMessage(`{"kind":"Pod","metadata":{"name":"web-1"}}`),
		FilterResult: json.RawMessage(`{"app":"web"}`),
	}
	contexts := []bctx.Context{
		bctx.Order("beforeHelm", bctx.Snapshots{"pods": {pod}}),
		bctx.WatchEventContext("pods", "Added", pod, nil),
	}
	fmt.Println(string(bctx.Marshal(contexts)))
	// Output:
	// [{"binding":"beforeHelm","snapshots":{"pods":[{"object":{"kind":"Pod","metadata":{"name":"web-1"}},"filterResult":{"app":"web"}}]}},{"binding":"pods","type":"Event","watchEvent":"Added","object":{"kind":"Pod","metadata":{"name":"web-1"}},"filterResult":{"app":"web"}}]
}

func ExampleMarshalV0() {
	out, _ := bctx.MarshalV0([]bctx.V0Context{
		bctx.V0Binding("incremental"),
		bctx.V0Event("onKubernetesEvent", "Modified", "default", "Pod", "web-1"),
	})
	fmt.Println(string(out))
	// Output:
	// [{"binding":"incremental"},{"binding":"onKubernetesEvent","resourceEvent":"update","resourceNamespace":"default","resourceKind":"Pod","resourceName":"web-1"}]
}

func ExampleAdmissionContext() {
	request := json.RawMessage(`{"uid":"705ab4f5","operation":"CREATE","object":{"kind":"Pod","metadata":{"name":"web"}}}`)
	c, err := bctx.AdmissionContext("private-repo.example.com", bctx.Validating, request, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(bctx.Marshal([]bctx.Context{c})))
	// Output:
	// [{"binding":"private-repo.example.com","type":"Validating","review":{"request":{"uid":"705ab4f5","operation":"CREATE","object":{"kind":"Pod","metadata":{"name":"web"}}}}}]
}
