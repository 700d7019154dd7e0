package readiness_test

import (
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

func Example() {
	var deployment, pod map[string]any
	_ = json.Unmarshal([]byte(`{"apiVersion":"apps/v1","kind":"Deployment",
		"metadata":{"name":"web","generation":2},
		"spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}}},
		"status":{"observedGeneration":2,"replicas":3,"updatedReplicas":3,"availableReplicas":1}}`), &deployment)
	_ = json.Unmarshal([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-5d8f-abc"},
		"status":{"containerStatuses":[{"name":"web","ready":false,
			"state":{"waiting":{"reason":"ImagePullBackOff","message":"Back-off pulling image \"nope:1\""}}}]}}`), &pod)

	st := readiness.Of(deployment)
	fmt.Println(st.Tracked, st.Ready, st.Progress)
	selector, _ := readiness.Selector(deployment)
	fmt.Println("pods:", selector)
	for _, line := range readiness.PodReasons([]map[string]any{pod}, 5) {
		fmt.Println(line)
	}
	// Output:
	// true false 1/3 available
	// pods: app=web
	// pod web-5d8f-abc: container web waiting: ImagePullBackOff (Back-off pulling image "nope:1")
}
