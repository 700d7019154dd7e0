package proc

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

// CPUTimes are a process's own CPU time (user+sys) and that of the
// children it waited for.
type CPUTimes struct{ Self, Children time.Duration }

// CPU reads utime+stime and cutime+cstime of pid from /proc/PID/stat.
func CPU(pid int) (CPUTimes, error) {
	path := fmt.Sprintf("/proc/%d/stat", pid)
	data, err := os.ReadFile(path)
	if err != nil {
		return CPUTimes{}, fmt.Errorf("read %s: %w", path, err)
	}
	t, err := ParseStatCPU(string(data))
	if err != nil {
		return CPUTimes{}, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// ParseStatCPU reads the CPU times of a /proc/PID/stat text.
func ParseStatCPU(stat string) (CPUTimes, error) {
	// The command name (field 2) may hold spaces; fields after its ')' are fixed.
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return CPUTimes{}, fmt.Errorf("no ')' after the command name")
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state); utime, stime, cutime, cstime are fields 14-17.
	if len(f) < 15 {
		return CPUTimes{}, fmt.Errorf("%d fields after the command name, want at least 15", len(f))
	}
	var ticks [4]int64
	for i := range ticks {
		n, err := strconv.ParseInt(f[11+i], 10, 64)
		if err != nil {
			return CPUTimes{}, fmt.Errorf("field %d %q is not a number", 14+i, f[11+i])
		}
		ticks[i] = n
	}
	return CPUTimes{Self: time.Duration(ticks[0]+ticks[1]) * clockTick,
		Children: time.Duration(ticks[2]+ticks[3]) * clockTick}, nil
}

// StatusBytes reads one "Key: N kB" line of /proc/PID/status (key with its
// colon, "VmHWM:"), in bytes; 0 when the process is gone or has no such
// line.
func StatusBytes(pid int, key string) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	return ParseStatusBytes(string(data), key)
}

// ParseStatusBytes finds "Key: N kB" in a /proc status text, in bytes.
func ParseStatusBytes(status, key string) int64 {
	for _, line := range strings.Split(status, "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == key {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// PeakSampler keeps the highest value of one /proc/PID/status key of a
// process, sampled every interval until Stop.
type PeakSampler struct {
	quit chan struct{}
	done chan int64
}

// SamplePeak starts sampling key of pid every interval.
func SamplePeak(pid int, key string, interval time.Duration) *PeakSampler {
	s := &PeakSampler{quit: make(chan struct{}), done: make(chan int64)}
	go func() {
		var peak int64
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			peak = max(peak, StatusBytes(pid, key))
			select {
			case <-s.quit:
				s.done <- max(peak, StatusBytes(pid, key))
				return
			case <-t.C:
			}
		}
	}()
	return s
}

// Stop samples once more, stops the sampling and returns the peak; call it
// while the process is still alive.
func (s *PeakSampler) Stop() int64 {
	close(s.quit)
	return <-s.done
}
