package messages_test

import (
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/test/actortest"
)

// The vocabulary is plain data: it imports, of this module, only the values
// library and the hook model, and none of what compiles selectors, jq
// filters or crontabs (those are compiled where they are used).
func TestMessagesArePlainData(t *testing.T) {
	const module = "github.com/addon-actors/addon-operator/"
	ours := map[string]bool{"messages": true, "values": true, "hook/bindings": true, "hook/bctx": true}
	for _, pkg := range actortest.Deps(t) {
		for _, banned := range []string{"github.com/itchyny/gojq", "github.com/robfig/cron", "k8s.io/apimachinery"} {
			if strings.HasPrefix(pkg, banned) {
				t.Errorf("messages depends on %s", pkg)
			}
		}
		if rel, isOurs := strings.CutPrefix(pkg, module); isOurs && !ours[rel] {
			t.Errorf("messages depends on %s; want only values and the hook model", pkg)
		}
	}
}
