package e2e_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// v0Watch is spec/HOOKS.md's onKubernetesEvent example (lower-case kind,
// "operation" in a match expression, update events only, a jqFilter on
// the labels) on the ConfigMaps of ns, without a name.
func v0Watch(ns string) string {
	return `{"onStartup":1,"onKubernetesEvent":[{"kind":"configmap","event":["update"],` +
		`"selector":{"matchLabels":{"myLabel":"myLabelValue"},"matchExpressions":[{"key":"tier","operation":"In","values":["cache"]}]},` +
		`"namespaceSelector":{"matchNames":["` + ns + `"]},"jqFilter":".metadata.labels","allowFailure":true}]}`
}

// spec/HOOKS.md, older form: onStartup runs with [{"binding":"onStartup"}];
// an unnamed schedule's context is [{"binding":"schedule"}], a named one's
// carries its name; onKubernetesEvent without a name is bound as
// "onKubernetesEvent", gets no run for the objects that exist at start or
// are added (event: update only), none for a data change (the jqFilter's
// output stays) and one for a label change of another, with the older
// context.
func TestV0HooksAsHooksMdGivesThem(t *testing.T) {
	ns := kube.Namespace(t)
	labels := map[string]string{"myLabel": "myLabelValue", "tier": "cache"}
	createConfigMap(t, ns, "pre", labels)
	record := `record "$(jq -c . $BINDING_CONTEXT_PATH)" `
	root := tree(t, map[string]string{
		"global-hooks/watch": hook(v0Watch(ns), record+"watch"),
		"global-hooks/tick": hook(`{"schedule":[{"name":"incremental","crontab":"* * * * * *","allowFailure":true},`+
			`{"crontab":"* * * * * *","allowFailure":false}]}`, record+"tick"),
		"modules/values.yaml": "{}\n",
	})
	op := startSpec(t, root, ns)
	op.waitReady(t)
	waitFor(t, "both schedules", func() bool {
		all := strings.Join(lines(root, "tick"), "\n")
		return strings.Contains(all, `"incremental"`) && strings.Contains(all, `"schedule"`)
	})
	for _, line := range lines(root, "tick") {
		if line != `[{"binding":"incremental"}]` && line != `[{"binding":"schedule"}]` &&
			line != `[{"binding":"incremental"},{"binding":"schedule"}]` && line != `[{"binding":"schedule"},{"binding":"incremental"}]` {
			t.Fatalf("schedule context %s, want the older form of spec/HOOKS.md", line)
		}
	}

	cms := kube.Client(t).CoreV1().ConfigMaps(ns)
	createConfigMap(t, ns, "added", labels)
	cm, err := cms.Get(context.Background(), "pre", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cm.Data = map[string]string{"data": "only"}
	if cm, err = cms.Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Another object, so that a run for the data change would show.
	if cm, err = cms.Get(context.Background(), "added", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	cm.Labels["extra"] = "yes"
	if _, err = cms.Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the label change's run", func() bool { return len(lines(root, "watch")) >= 2 })
	got := lines(root, "watch")
	if len(got) != 2 {
		t.Fatalf("watch ran %d times, want onStartup and the label change:\n%s", len(got), strings.Join(got, "\n"))
	}
	scenario.JSONEqual(t, "onStartup", got[0], `[{"binding":"onStartup"}]`)
	scenario.JSONEqual(t, "label change", got[1], `[{"binding":"onKubernetesEvent","resourceEvent":"update",`+
		`"resourceNamespace":"`+ns+`","resourceKind":"ConfigMap","resourceName":"added"}]`)
}
