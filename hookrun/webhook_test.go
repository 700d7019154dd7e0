package hookrun_test

import (
	"encoding/json"
	"testing"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hookrun"
)

// A webhook run's context gets the snapshots its binding names as they are
// when the hook starts; a webhook binding naming none gets none, even when
// a kubernetes binding has its name.
func TestRefillContextsOfWebhookRuns(t *testing.T) {
	h := mustHook(t, "policy", `{"configVersion":"v1",
		"kubernetes":[{"name":"pods","kind":"Pod","group":"g"},{"name":"m","kind":"Secret","includeSnapshotsFrom":["pods"]}],
		"kubernetesValidating":[{"name":"v.example.com","group":"g"}],
		"kubernetesMutating":[{"name":"m"}]}`)
	stale := bctx.Snapshots{"pods": {{FilterResult: json.RawMessage(`"stale"`)}}}
	validating, err := bctx.AdmissionContext("v.example.com", bctx.Validating, json.RawMessage(`{"uid":"1"}`), stale)
	if err != nil {
		t.Fatal(err)
	}
	mutating, err := bctx.AdmissionContext("m", bctx.Mutating, json.RawMessage(`{"uid":"2"}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	current := bctx.Snapshots{"pods": {{FilterResult: json.RawMessage(`"now"`)}}, "m": {}}
	refilled, ok := hookrun.RefillContexts(h, bctx.Marshal([]bctx.Context{validating, mutating}), current)
	if !ok {
		t.Fatal("contexts not read")
	}
	got := bctx.Marshal(refilled)
	want := `[{"binding":"v.example.com","type":"Validating","snapshots":{"pods":[{"filterResult":"now"}]},"review":{"request":{"uid":"1"}}},` +
		`{"binding":"m","type":"Mutating","review":{"request":{"uid":"2"}}}]`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
