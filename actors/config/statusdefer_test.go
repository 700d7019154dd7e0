package config

import (
	"testing"

	"github.com/addon-actors/addon-operator/moduleconfig"
)

// TestPendingStatuses: the first status arms the timer, later ones do
// not; an object's newer status replaces the waiting one; a deleted
// object's is dropped; take returns the latest of each, in name order,
// and the next put arms again.
func TestPendingStatuses(t *testing.T) {
	var p pendingStatuses
	if !p.put("web", moduleconfig.Status{Message: "one"}) {
		t.Fatal("the first status does not arm the timer")
	}
	if p.put("web", moduleconfig.Status{Message: "two"}) || p.put("api", moduleconfig.Status{Message: "a"}) ||
		p.put("gone", moduleconfig.Status{Message: "g"}) {
		t.Fatal("a status armed the timer again while it runs")
	}
	p.drop("gone")
	got := p.take()
	if len(got) != 2 || got[0].Name != "api" || got[1].Name != "web" || got[1].Status.Message != "two" {
		t.Fatalf("took %+v, want api's and web's latest", got)
	}
	if len(p.take()) != 0 || !p.put("web", moduleconfig.Status{}) {
		t.Fatal("after take, nothing waits and the next status arms the timer")
	}
}
