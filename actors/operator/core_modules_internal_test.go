package operator

import (
	"errors"
	"reflect"
	"testing"

	"github.com/addon-actors/addon-operator/layout"
	"github.com/addon-actors/addon-operator/values"
)

func def(t *testing.T, dir, version string) layout.Definition {
	t.Helper()
	names, err := values.ParseModuleDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return layout.Definition{Names: names, Dir: "/modules/" + dir + "@" + version}
}

func namesOf(defs []layout.Definition) []string {
	out := []string{}
	for _, d := range defs {
		out = append(out, d.Names.Name+"@"+d.Dir[len(d.Dir)-2:])
	}
	return out
}

// A scan adds new modules in module order, removes only those whose dir is
// gone, and keeps a known module's definition, even when its dir could not
// be read this time.
func TestDiffModules(t *testing.T) {
	known := []layout.Definition{def(t, "001-alpha", "v1"), def(t, "002-delta", "v1"), def(t, "004-gamma", "v1")}
	scan := ModulesScanned{
		Defs: []layout.Definition{def(t, "001-alpha", "v2"), def(t, "003-beta", "v2")},
		Errs: []error{errors.New("002-delta/values.yaml: broken")},
		Gone: []string{"gamma"},
	}
	c := diffModules(known, scan)
	if got, want := namesOf(c.next), []string{"alpha@v1", "delta@v1", "beta@v2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("next %v, want %v", got, want)
	}
	if got := namesOf(c.added); !reflect.DeepEqual(got, []string{"beta@v2"}) {
		t.Fatalf("added %v", got)
	}
	if !reflect.DeepEqual(c.removed, []string{"gamma"}) {
		t.Fatalf("removed %v", c.removed)
	}
}
