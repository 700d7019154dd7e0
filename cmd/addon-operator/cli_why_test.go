package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
)

// A superseded run's task names its failing run's error, which holds the
// hook's stderr lines: the SUPERSEDED row stays one line.
func TestTextWhySupersededIsOneLine(t *testing.T) {
	why := debugapi.Why{Module: "bad", Superseded: &board.Superseded{
		Task: "main:ModuleRun:bad failing (hook before: exited with code 1; last stderr lines:\nbad is told to fail)",
		By:   "global section of the ConfigMap changed", At: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}}
	body, err := json.Marshal(why)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := textWhy(&out, body); err != nil {
		t.Fatal(err)
	}
	want := "main:ModuleRun:bad failing (hook before: exited with code 1; last stderr lines: bad is told to fail) at 03:04:05.000: global section of the ConfigMap changed\n"
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(line, "SUPERSEDED") {
			if !strings.HasSuffix(line+"\n", want) {
				t.Fatalf("SUPERSEDED row %q, want it to end with %q", line, want)
			}
			return
		}
	}
	t.Fatalf("no SUPERSEDED row:\n%s", out.String())
}
