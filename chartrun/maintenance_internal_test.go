package chartrun

import (
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/release"
)

// labelObjects labels every object of a rendered text, keeps each
// document's "# Source:" lines and order, leaves empty documents out, and
// names the template of a document that is not an object.
func TestLabelObjects(t *testing.T) {
	in := "---\n# Source: demo/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels:\n    app: x\n" +
		"---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: b\n" +
		"---\n# Source: demo/templates/empty.yaml\n\n" +
		"---\n# Source: demo/templates/c.yaml\nkind: Namespace\napiVersion: v1\n"
	got, err := labelObjects(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\n# Source: demo/templates/a.yaml\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    app: x\n" +
		"    maintenance.deckhouse.io/no-resource-reconciliation: \"\"\n  name: a\n" +
		"---\napiVersion: v1\nkind: Secret\nmetadata:\n  labels:\n    maintenance.deckhouse.io/no-resource-reconciliation: \"\"\n  name: b\n" +
		"---\n# Source: demo/templates/c.yaml\napiVersion: v1\nkind: Namespace\nmetadata:\n  labels:\n" +
		"    maintenance.deckhouse.io/no-resource-reconciliation: \"\"\n"
	if got != want {
		t.Fatalf("labelObjects:\n%s\nwant:\n%s", got, want)
	}
	_, err = labelObjects("---\n# Source: demo/templates/list.yaml\n- a\n- b\n")
	if err == nil || !strings.Contains(err.Error(), "demo/templates/list.yaml") {
		t.Fatalf("a list document: err %v, want one naming the template", err)
	}
}

// A run in maintenance keeps the release only when its latest revision,
// whatever its status, is labelled "true".
func TestKeptInMaintenance(t *testing.T) {
	labelled := func(v int, status release.Status, value string) *release.Release {
		r := rev(v, status, "s", true)
		if value != "" {
			r.Labels[LabelMaintenance] = value
		}
		return r
	}
	for _, tc := range []struct {
		name    string
		history []*release.Release
		want    int
	}{
		{"no release", nil, 0},
		{"unlabelled", []*release.Release{labelled(1, release.StatusDeployed, "")}, 0},
		{"labelled false", []*release.Release{labelled(1, release.StatusDeployed, "false")}, 0},
		{"labelled true", []*release.Release{labelled(1, release.StatusDeployed, "true")}, 1},
		{"true, then a failed false", []*release.Release{labelled(1, release.StatusDeployed, "true"), labelled(2, release.StatusFailed, "false")}, 0},
		{"a failed true", []*release.Release{labelled(1, release.StatusDeployed, "false"), labelled(2, release.StatusFailed, "true")}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := 0
			if kept := keptInMaintenance(tc.history); kept != nil {
				got = kept.Version
			}
			if got != tc.want {
				t.Fatalf("kept revision %d, want %d", got, tc.want)
			}
		})
	}
}
