package proc_test

import (
	"os"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/proc"
)

func TestParseStatusBytes(t *testing.T) {
	status := "Name:\taddon-operator\nVmRSS:\t   51200 kB\nRssAnon:\t   30720 kB\n"
	for key, want := range map[string]int64{"VmRSS:": 50 << 20, "RssAnon:": 30 << 20, "VmHWM:": 0} {
		if got := proc.ParseStatusBytes(status, key); got != want {
			t.Errorf("%s = %d, want %d", key, got, want)
		}
	}
}

func TestParseStatCPU(t *testing.T) {
	// The command name holds a space and a ')'; utime 150, stime 50,
	// cutime 7, cstime 3.
	stat := "42 (a) b) S 1 42 42 0 -1 4194560 100 0 0 0 150 50 7 3 20 0 10 0 100 1000 200"
	got, err := proc.ParseStatCPU(stat)
	want := proc.CPUTimes{Self: 2 * time.Second, Children: 100 * time.Millisecond}
	if err != nil || got != want {
		t.Errorf("ParseStatCPU = %+v, %v; want %+v", got, err, want)
	}
	if _, err := proc.ParseStatCPU("42 (a) S 1"); err == nil {
		t.Error("short stat: want an error")
	}
}

// The test process's own figures are readable: some CPU spent, a resident
// set, and a peak sampler that returns at least that.
func TestOwnProcess(t *testing.T) {
	pid := os.Getpid()
	if _, err := proc.CPU(pid); err != nil {
		t.Fatal(err)
	}
	rss := proc.StatusBytes(pid, "VmRSS:")
	if rss <= 0 {
		t.Fatalf("VmRSS = %d", rss)
	}
	if peak := proc.SamplePeak(pid, "VmHWM:", time.Millisecond).Stop(); peak < rss {
		t.Fatalf("peak VmHWM %d < VmRSS %d", peak, rss)
	}
}
