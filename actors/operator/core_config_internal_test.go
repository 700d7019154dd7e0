package operator

import (
	"testing"

	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
)

func TestOnConfigChanged(t *testing.T) {
	cases := []struct {
		name   string
		booted bool
		change values.Change
		want   configEffects
	}{
		{"during start-up only stored", false, values.Change{Global: true, Enabled: []string{"a"}}, configEffects{}},
		{"global section -> the global actor", true, values.Change{Global: true}, configEffects{applyGlobal: true}},
		{"enabled flag -> reload all", true, values.Change{Enabled: []string{"a"}},
			configEffects{reloadAll: "enabled flags changed in the ConfigMap"}},
		{"both", true, values.Change{Global: true, Enabled: []string{"a"}},
			configEffects{applyGlobal: true, reloadAll: "enabled flags changed in the ConfigMap"}},
		{"module section: not the operator's", true, values.Change{Modules: []string{"a", "b"}}, configEffects{}},
		{"nothing", true, values.Change{}, configEffects{}},
	}
	for _, c := range cases {
		if got := onConfigChanged(c.booted, c.change); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestOnConfigApplied(t *testing.T) {
	cases := []struct {
		name string
		msg  messages.ConfigApplied
		want configEffects
	}{
		{"global values changed -> reload all", messages.ConfigApplied{Owner: messages.OwnerGlobal, Changed: true},
			configEffects{reloadAll: "global section of the ConfigMap changed"}},
		{"global values unchanged", messages.ConfigApplied{Owner: messages.OwnerGlobal}, configEffects{}},
		{"global section rejected: counted, nothing runs", messages.ConfigApplied{Owner: messages.OwnerGlobal, Err: "bad"},
			configEffects{countError: true}},
		{"a module's values: its own business", messages.ConfigApplied{Owner: "module/a", Changed: true}, configEffects{}},
		{"a new module's first section rejected: counted", messages.ConfigApplied{Owner: "module/a", Err: "bad"},
			configEffects{countError: true}},
	}
	for _, c := range cases {
		if got := onConfigApplied(c.msg); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}
