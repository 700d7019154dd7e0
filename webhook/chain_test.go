package webhook

import (
	"strings"
	"testing"
)

func conv(hook string, rules ...string) Conversion {
	c := Conversion{Hook: hook, CRDName: "crontabs.stable.example.com"}
	for _, r := range rules {
		from, to, _ := strings.Cut(r, ">")
		c.Rules = append(c.Rules, ConversionRule{From: from, To: to})
	}
	return c
}

func chainString(steps []Step) string {
	var parts []string
	for _, s := range steps {
		parts = append(parts, s.Binding.Hook+":"+s.From+">"+s.To)
	}
	return strings.Join(parts, " ")
}

func TestChain(t *testing.T) {
	a := conv("a", "v1>v2", "v2>v1")
	b := conv("b", "stable.example.com/v2>stable.example.com/v3")
	c := conv("c", "v1>v3")
	other := conv("o", "other.io/v1>other.io/v9")
	loop := conv("l", "v1>v1b", "v1b>v1", "v1b>v1c")
	for _, tc := range []struct {
		name     string
		bindings []Conversion
		from, to string
		want     string
		ok       bool
	}{
		{"already there", []Conversion{a}, "stable.example.com/v1", "v1", "", true},
		{"one step short to full", []Conversion{a}, "stable.example.com/v1", "stable.example.com/v2", "a:v1>v2", true},
		{"two hooks", []Conversion{a, b}, "stable.example.com/v1", "stable.example.com/v3", "a:v1>v2 b:stable.example.com/v2>stable.example.com/v3", true},
		{"back", []Conversion{a, b}, "stable.example.com/v2", "stable.example.com/v1", "a:v2>v1", true},
		{"shortest", []Conversion{a, b, c}, "stable.example.com/v1", "stable.example.com/v3", "c:v1>v3", true},
		{"no way back from v3", []Conversion{a, b}, "stable.example.com/v3", "stable.example.com/v1", "", false},
		{"groups differ", []Conversion{other}, "stable.example.com/v1", "stable.example.com/v9", "", false},
		{"group differs on source", []Conversion{b}, "other.io/v2", "stable.example.com/v3", "", false},
		{"loops ignored", []Conversion{loop}, "v1", "v1c", "l:v1>v1b l:v1b>v1c", true},
		{"loop without exit", []Conversion{loop}, "v1", "v7", "", false},
		{"no rules", nil, "v1", "v2", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps, ok := Chain(tc.bindings, tc.from, tc.to)
			if ok != tc.ok || chainString(steps) != tc.want {
				t.Errorf("Chain(%s → %s) = %q, %v; want %q, %v", tc.from, tc.to, chainString(steps), ok, tc.want, tc.ok)
			}
		})
	}
}

func TestSameVersion(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"v1", "v1", true}, {"v1", "g/v1", true}, {"g/v1", "v1", true}, {"g/v1", "g/v1", true},
		{"g/v1", "h/v1", false}, {"v1", "v2", false}, {"g/v1", "g/v2", false},
	} {
		if got := SameVersion(tc.a, tc.b); got != tc.want {
			t.Errorf("SameVersion(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}
