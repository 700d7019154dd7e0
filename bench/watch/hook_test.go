package main

import "testing"

func TestParseHookLog(t *testing.T) {
	got := parseHookLog("1 0\n3 0\n\n2 1\n")
	if want := (hookLog{runs: 3, contexts: 6, seen: true}); got != want {
		t.Errorf("parseHookLog = %+v, want %+v", got, want)
	}
	if got := parseHookLog(""); got != (hookLog{}) {
		t.Errorf("empty log = %+v, want none", got)
	}
}
