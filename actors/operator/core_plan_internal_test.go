package operator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/messages"
)

// planConverge decides the end of discovery with no actor involved: runs
// for the enabled modules in discovery order, deletes for disabled modules
// that were enabled or have a release (whoever installed it), purges for
// owned releases without a module dir; never a skipped module (failed or
// unseen), HELM_IGNORE_RELEASE, or the release of an unloadable module.
func TestPlanConverge(t *testing.T) {
	defs := []layout.Definition{def(t, "001-a", ""), def(t, "002-b", ""), def(t, "003-c", ""), def(t, "004-d", "")}
	cases := []struct {
		name       string
		enabled    []string
		wasEnabled []string
		skipped    []string
		all, owned []string
		unloaded   []string
		ignore     string
		unmet      map[string][]string
		tasks      []string
		disabled   []string
		kept       []string
		reasons    map[string]string // delete of a module -> "cause: reason"
	}{
		{name: "first converge, all enabled", enabled: []string{"a", "b", "c", "d"},
			tasks: []string{"run a", "run b", "run c", "run d"}},
		{name: "disabled never enabled, no release: told, not deleted", enabled: []string{"a", "c"},
			tasks: []string{"run a", "run c"}, disabled: []string{"b", "d"}},
		{name: "disabled after being enabled: deleted", enabled: []string{"a"}, wasEnabled: []string{"a", "b"},
			tasks: []string{"run a", "delete b"}, disabled: []string{"b", "c", "d"}},
		{name: "disabled with a release someone else installed: deleted", enabled: []string{"a", "b", "c"},
			all: []string{"d"}, tasks: []string{"run a", "run b", "run c", "delete d"}, disabled: []string{"d"}},
		{name: "skipped modules are neither run nor deleted", enabled: []string{"a"}, wasEnabled: []string{"b"},
			skipped: []string{"b", "c"}, all: []string{"c"}, tasks: []string{"run a"}, disabled: []string{"d"}},
		{name: "owned release without a module dir: purged", enabled: []string{"a", "b", "c", "d"},
			owned: []string{"a", "gone"}, all: []string{"a", "gone"}, tasks: []string{"run a", "run b", "run c", "run d", "purge gone"}},
		{name: "ignored and unloadable releases stay", enabled: []string{"a", "b", "c", "d"},
			owned: []string{"ignored", "broken"}, ignore: "ignored", unloaded: []string{"broken"},
			tasks: []string{"run a", "run b", "run c", "run d"}, kept: []string{"broken"}},
		{name: "disabled by unmet requirements after being enabled: deleted with its reason", enabled: []string{"a"},
			wasEnabled: []string{"a", "b"}, unmet: map[string][]string{"b": {"dependency 'c' is disabled"}},
			tasks: []string{"run a", "delete b"}, disabled: []string{"b", "c", "d"},
			reasons: map[string]string{"b": "requirements: turned off because of unmet requirements: dependency 'c' is disabled"}},
		{name: "a foreign release without a module dir is not ours to purge", enabled: []string{"a", "b", "c", "d"},
			all: []string{"foreign"}, tasks: []string{"run a", "run b", "run c", "run d"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := planConverge(convergeInput{modules: defs,
				discovered: &discovery{enabled: tc.enabled, byScript: map[string]bool{}, unmet: tc.unmet},
				wasEnabled: set(tc.wasEnabled), skipped: func(n string) bool { return set(tc.skipped)[n] },
				releases: ReleasesListed{All: tc.all, Owned: tc.owned}, unloaded: tc.unloaded, ignore: tc.ignore})
			if got := planned(p.tasks); !reflect.DeepEqual(got, tc.tasks) {
				t.Errorf("tasks %v, want %v", got, tc.tasks)
			}
			if !reflect.DeepEqual(p.disabled, tc.disabled) || !reflect.DeepEqual(p.kept, tc.kept) {
				t.Errorf("disabled %v kept %v, want %v %v", p.disabled, p.kept, tc.disabled, tc.kept)
			}
			for _, task := range p.tasks {
				if want, ok := tc.reasons[task.Module]; ok && task.Cause+": "+task.Reason != want {
					t.Errorf("delete of %s: %s: %s, want %s", task.Module, task.Cause, task.Reason, want)
				}
			}
			if !reflect.DeepEqual(p.enabled, set(tc.enabled)) {
				t.Errorf("enabled %v, want %v", p.enabled, tc.enabled)
			}
		})
	}
}

func set(names []string) map[string]bool {
	out := map[string]bool{}
	for _, n := range names {
		out[n] = true
	}
	return out
}

// planned writes tasks as "run a", "delete b", "purge gone".
func planned(tasks []messages.Task) []string {
	var out []string
	for _, t := range tasks {
		verb := map[messages.TaskKind]string{messages.TaskModuleRun: "run", messages.TaskModuleDelete: "delete",
			messages.TaskModulePurge: "purge"}[t.Kind]
		out = append(out, strings.TrimSpace(verb+" "+t.Module))
	}
	return out
}
