package cluster

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Ports for the servers come from below the kernel's ephemeral range: a
// port picked there by a listen on :0 could be taken as the source port of
// any outgoing connection before the server binds it (a kubelet that lost
// its port this way exited with an empty log, since klog had not flushed).
// A cursor file under the lock hands out ports in turn, so clusters started
// in parallel processes never get the same one; each is checked free.
const (
	portsFirst    = 20000 // the lowest port handed out
	portsLock     = "testcluster-ports.lock"
	portsCursor   = "testcluster-ports.next"
	portsFallback = 32768 // the ephemeral range's start when /proc does not say
)

// FreePorts returns n ports that no socket uses now, below the ephemeral
// range, each handed out once per cycle of the range across processes: the
// servers of a cluster, and any a test gives the operator (two calls never
// return the same port, as two listens on :0 may).
func FreePorts(n int) ([]int, error) {
	limit := ephemeralStart()
	if limit-portsFirst < 1000 {
		return listenPorts(n) // no room below: the kernel's choice
	}
	unlock, err := LockFile(filepath.Join(os.TempDir(), portsLock))
	if err != nil {
		return nil, err
	}
	defer unlock()
	cursorFile := filepath.Join(os.TempDir(), portsCursor)
	next := readCursor(cursorFile)
	ports := make([]int, 0, n)
	for tried := 0; len(ports) < n; tried++ {
		if tried > limit-portsFirst {
			return nil, fmt.Errorf("no free port in %d-%d", portsFirst, limit-1)
		}
		if next < portsFirst || next >= limit {
			next = portsFirst
		}
		if portFree(next) {
			ports = append(ports, next)
		}
		next++
	}
	if err := os.WriteFile(cursorFile, []byte(strconv.Itoa(next)+"\n"), 0o666); err != nil {
		return nil, fmt.Errorf("port cursor: %w", err)
	}
	return ports, nil
}

// ephemeralStart is the first port of the kernel's ephemeral range.
func ephemeralStart() int {
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return portsFallback
	}
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return portsFallback
	}
	low, err := strconv.Atoi(fields[0])
	if err != nil {
		return portsFallback
	}
	return low
}

func readCursor(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return portsFirst
	}
	next, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		return portsFirst
	}
	return next
}

// portFree is true when a listener on every address can take the port.
func portFree(port int) bool {
	l, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

// listenPorts is the kernel's choice of n ports (held together so that
// they differ).
func listenPorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("find a free port: %w", err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
