package hookconfig_test

import (
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

func ExampleParse() {
	out := []byte(`{"configVersion":"v1",
	  "onStartup": 10,
	  "schedule": [{"name":"every-minute","crontab":"* * * * *","includeSnapshotsFrom":["pods"]}],
	  "kubernetes": [{"name":"pods","kind":"Pod","jqFilter":".metadata.labels","queue":"pods"}]}`)
	cfg, err := hookconfig.Parse(out, bindings.ScopeModule)
	if err != nil {
		fmt.Println(err)
		return
	}
	order, _ := cfg.Order(bindings.OnStartup)
	fmt.Println(cfg.Version, order, cfg.Schedules[0].Name, cfg.Kubernetes[0].Name, cfg.Kubernetes[0].Queue)

	_, err = hookconfig.Parse([]byte(`{"configVersion":"v1","beforeAll":1}`), bindings.ScopeModule)
	fmt.Println(err)
	// Output:
	// v1 10 every-minute pods pods
	// beforeAll: binding not allowed in this scope: beforeAll is for global hooks only, this is a module hook
}
