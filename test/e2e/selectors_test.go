package e2e_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// selectorBindings are kubernetes bindings on the ConfigMaps of ns, one per
// selector of UPSTREAM.md §8.2, each keeping the name.
func selectorBindings(ns string) string {
	bind := func(name, selector string) string {
		return `{"name":"` + name + `","kind":"ConfigMap","keepFullObjectsInMemory":false,"jqFilter":".metadata.name",` +
			`"namespace":{"nameSelector":{"matchNames":["` + ns + `"]}},` + selector + `}`
	}
	return `{"configVersion":"v1","kubernetes":[` + strings.Join([]string{
		bind("names", `"nameSelector":{"matchNames":["a","c"]}`),
		bind("one-name", `"nameSelector":{"matchNames":["b"]}`),
		bind("not-d", `"fieldSelector":{"matchExpressions":[{"field":"metadata.name","operator":"NotEquals","value":"d"},`+
			`{"field":"metadata.namespace","operator":"==","value":"`+ns+`"}]}`),
		bind("exprs", `"labelSelector":{"matchExpressions":[{"key":"tier","operator":"In","values":["web","db"]},`+
			`{"key":"canary","operator":"DoesNotExist"}]}`),
		bind("exprs2", `"labelSelector":{"matchExpressions":[{"key":"tier","operator":"NotIn","values":["db"]},`+
			`{"key":"env","operator":"Exists"}]}`),
	}, ",") + `]}`
}

// UPSTREAM.md §8.2 at run time: nameSelector (several names, one name),
// fieldSelector (NotEquals, ==) and labelSelector matchExpressions (In,
// NotIn, Exists, DoesNotExist) choose which objects a binding's
// Synchronization lists (sorted by name) and which objects' events run
// the hook. Each binding's last event is a deletion every binding sees, so
// an event it should not have had would show before it.
func TestSelectorsChooseTheObjects(t *testing.T) {
	ns := kube.Namespace(t)
	cms := kube.Client(t).CoreV1().ConfigMaps(ns)
	for name, labels := range map[string]map[string]string{"a": {"tier": "web", "env": "prod"}, "b": {"tier": "db"},
		"c": {"tier": "web", "canary": "yes"}, "d": nil} {
		putLabelled(t, cms, name, labels)
	}
	line := `"\(.binding) \(.type) \(.watchEvent // "") \(if .type == "Synchronization" then ([.objects[].filterResult] | join(",")) else .filterResult end)"`
	root := tree(t, map[string]string{
		"global-hooks/selectors": hook(selectorBindings(ns), `mkdir -p "$RECORD_DIR"; jq -r '.[] | `+line+`' "$BINDING_CONTEXT_PATH" >> "$RECORD_DIR/sel"`),
		"modules/values.yaml":    "{}\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	checkSelected(t, root, map[string][]string{"names": {"Synchronization  a,c"}, "one-name": {"Synchronization  b"},
		"not-d": {"Synchronization  a,b,c"}, "exprs": {"Synchronization  a,b"}, "exprs2": {"Synchronization  a"}})

	putLabelled(t, cms, "e", map[string]string{"tier": "web", "env": "prod"})
	for _, name := range []string{"c", "b", "a"} {
		if err := cms.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{"names": {"Event Deleted c", "Event Deleted a"}, "one-name": {"Event Deleted b"},
		"not-d":  {"Event Added e", "Event Deleted c", "Event Deleted b", "Event Deleted a"},
		"exprs":  {"Event Added e", "Event Deleted b", "Event Deleted a"},
		"exprs2": {"Event Added e", "Event Deleted a"}}
	waitFor(t, "each binding's last event", func() bool {
		got := selected(root)
		for binding, events := range want {
			if seen := got[binding]; len(seen) == 0 || seen[len(seen)-1] != events[len(events)-1] {
				return false
			}
		}
		return true
	})
	for binding, events := range want {
		want[binding] = append([]string{selected(root)[binding][0]}, events...) // after its Synchronization
	}
	checkSelected(t, root, want)
}

// selected is what the selectors hook recorded: per binding, its contexts
// as "type watchEvent names".
func selected(root string) map[string][]string {
	out := map[string][]string{}
	for _, l := range lines(root, "sel") {
		binding, rest, _ := strings.Cut(l, " ")
		out[binding] = append(out[binding], rest)
	}
	return out
}

func checkSelected(t *testing.T, root string, want map[string][]string) {
	t.Helper()
	got := selected(root)
	for binding, w := range want {
		if !slices.Equal(got[binding], w) {
			t.Errorf("binding %s ran with %q, want %q", binding, got[binding], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("bindings that ran: %v, want %d", got, len(want))
	}
}

func putLabelled(t *testing.T, cms typedcorev1.ConfigMapInterface, name string, labels map[string]string) {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}}
	if _, err := cms.Create(context.Background(), cm, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create configmap %s: %v", name, err)
	}
}

// UPSTREAM.md §8.4: objects and snapshots are sorted by namespace, then
// name: all of namespace N come before those of N-b (a sort of
// "namespace/name" keys puts "N-b/…" first, as '-' sorts before '/').
func TestObjectsSortedByNamespaceThenName(t *testing.T) {
	ns := kube.Namespace(t)
	client := kube.Client(t)
	other := ns + "-b"
	if _, err := client.CoreV1().Namespaces().Create(context.Background(),
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: other}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := client.CoreV1().Namespaces().Delete(context.Background(), other, metav1.DeleteOptions{}); err != nil {
			t.Errorf("delete namespace %s: %v", other, err)
		}
	})
	sorted := map[string]string{"sorted": "x"}
	putLabelled(t, client.CoreV1().ConfigMaps(other), "a", sorted)
	putLabelled(t, client.CoreV1().ConfigMaps(ns), "z", sorted)
	putLabelled(t, client.CoreV1().ConfigMaps(ns), "y", sorted)
	config := `{"configVersion":"v1","afterAll":1,"kubernetes":[{"name":"cms","kind":"ConfigMap","keepFullObjectsInMemory":false,` +
		`"jqFilter":".metadata.namespace + \"/\" + .metadata.name","labelSelector":{"matchLabels":{"sorted":"x"}},` +
		`"namespace":{"nameSelector":{"matchNames":["` + other + `","` + ns + `"]}}}]}`
	root := tree(t, map[string]string{
		"global-hooks/sorted": hook(config, `record "$(jq -c '.[0] | (.objects // .snapshots.cms) | map(.filterResult)' $BINDING_CONTEXT_PATH)" sorted`),
		"modules/values.yaml": "{}\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	want := `["` + ns + `/y","` + ns + `/z","` + other + `/a"]`
	got := lines(root, "sorted")
	if len(got) != 2 {
		t.Fatalf("runs %q, want Synchronization and afterAll", got)
	}
	scenario.JSONEqual(t, "Synchronization objects", got[0], want)
	scenario.JSONEqual(t, "afterAll snapshot", got[1], want)
}
