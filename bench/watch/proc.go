package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTick is the kernel's USER_HZ: /proc/PID/stat counts CPU time in
// ticks of 1/100 s on every Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// The /proc readers are copies of bench/converge's (usage.go): they are a
// few lines each there, tied to its usage type, and not worth a package.

// statusKB reads one "Key: N kB" line of /proc/PID/status, in bytes; 0 when
// the process is gone or has no such line.
func statusKB(pid int, key string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	return parseStatusKB(string(data), key)
}

// parseStatusKB finds "Key: N kB" in a /proc status text, in bytes.
func parseStatusKB(status, key string) int64 {
	for _, line := range strings.Split(status, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == key {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// processCPU reads utime+stime of pid from /proc/PID/stat.
func processCPU(pid int) (time.Duration, error) {
	path := fmt.Sprintf("/proc/%d/stat", pid)
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, fmt.Errorf("read %s: %w", path, err)
	}
	d, err := parseStatCPU(string(data))
	if err != nil {
		return 0, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// parseStatCPU is utime+stime of a /proc/PID/stat text.
func parseStatCPU(stat string) (time.Duration, error) {
	// The command name (field 2) may hold spaces; fields after its ')' are fixed.
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("no ')' after the command name")
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("%d fields after the command name, want at least 13", len(f))
	}
	var sum int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("CPU field %q is not a number", s)
		}
		sum += n
	}
	return time.Duration(sum) * clockTick, nil
}

// peakSampler keeps the highest RssAnon of a process, sampled every
// interval until stop is called.
type peakSampler struct {
	stop func() int64
}

func sampleAnon(pid int, interval time.Duration) *peakSampler {
	quit, done := make(chan struct{}), make(chan int64)
	go func() {
		var peak int64
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			peak = max(peak, statusKB(pid, "RssAnon:"))
			select {
			case <-quit:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return &peakSampler{stop: func() int64 { close(quit); return <-done }}
}
