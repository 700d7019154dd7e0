package board_test

import (
	"slices"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// TestConfigSecrets: the paths a ModuleConfig takes from Secrets join the
// owner's password paths (one mechanism), and their values are among the
// Secrets, also for an owner with no password setting; cleared, they go.
func TestConfigSecrets(t *testing.T) {
	b := board.New()
	b.SetModuleValues("web", values.Snapshot{Key: "web", Config: map[string]any{"token": "from-a-secret", "pw": "a-password"},
		Values: map[string]any{"token": "from-a-secret"}})
	if got := b.Secrets(); len(got) != 0 {
		t.Fatalf("Secrets with no paths: %q", got)
	}
	b.SetConfigSecrets("web", mask.Paths{{"token"}})
	if got := b.Secrets(); !slices.Equal(got, mask.Secrets{"from-a-secret"}) {
		t.Fatalf("Secrets = %q, want the value at the ModuleConfig's path", got)
	}
	b.SetPasswords("web", mask.Paths{{"pw"}})
	if got := b.Passwords("web"); len(got) != 2 || got[0].String() != "pw" || got[1].String() != "token" {
		t.Fatalf("Passwords = %v, want the schema's and the ModuleConfig's", got)
	}
	b.SetConfigSecrets("web", nil)
	if got := b.Secrets(); !slices.Equal(got, mask.Secrets{"a-password"}) {
		t.Fatalf("Secrets after the paths were cleared = %q", got)
	}
}
