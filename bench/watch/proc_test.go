package main

import (
	"testing"
	"time"
)

func TestParseStatusKB(t *testing.T) {
	status := "Name:\taddon-operator\nVmRSS:\t   51200 kB\nRssAnon:\t   30720 kB\n"
	if got := parseStatusKB(status, "VmRSS:"); got != 50<<20 {
		t.Errorf("VmRSS = %d, want %d", got, 50<<20)
	}
	if got := parseStatusKB(status, "RssAnon:"); got != 30<<20 {
		t.Errorf("RssAnon = %d, want %d", got, 30<<20)
	}
	if got := parseStatusKB(status, "VmHWM:"); got != 0 {
		t.Errorf("missing key = %d, want 0", got)
	}
}

func TestParseStatCPU(t *testing.T) {
	// The command name holds a space and a ')'; utime 150, stime 50.
	stat := "42 (a) b) S 1 42 42 0 -1 4194560 100 0 0 0 150 50 7 3 20 0 10 0 100 1000 200"
	got, err := parseStatCPU(stat)
	if err != nil || got != 2*time.Second {
		t.Errorf("parseStatCPU = %v, %v; want 2s", got, err)
	}
	if _, err := parseStatCPU("42 (a) S 1"); err == nil {
		t.Error("short stat: want an error")
	}
}
