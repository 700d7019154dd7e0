package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/test/scenario"
)

// waitIdle polls /queue?format=json every 100 ms until it shows no task
// twice in a row.
func waitIdle(op *scenario.Process) error {
	empty := 0
	return op.Poll("idle queues", 100*time.Millisecond, 5*time.Minute, func() bool {
		if queuedTasks(op.Get("/queue?format=json")) == 0 {
			empty++
		} else {
			empty = 0
		}
		return empty >= 2
	})
}

// queuedTasks counts the tasks of a /queue?format=json answer; -1 when it
// is not one.
func queuedTasks(status int, body []byte, err error) int {
	var snap struct {
		Queues []struct {
			Tasks []json.RawMessage `json:"tasks"`
		} `json:"queues"`
	}
	if err != nil || status != http.StatusOK || json.Unmarshal(body, &snap) != nil {
		return -1
	}
	n := 0
	for _, q := range snap.Queues {
		n += len(q.Tasks)
	}
	return n
}

// saveHeap writes the operator's heap profile (after a GC) to path, from
// the debug socket's /debug/pprof/heap, and beside it (.txt) the text form,
// which ends with the runtime's MemStats (heap in use, idle, released).
func saveHeap(socket, path string) error {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", socket)
		}}}
	if err := fetch(client, "http://debug/debug/pprof/heap?gc=1", path); err != nil {
		return err
	}
	return fetch(client, "http://debug/debug/pprof/heap?debug=1", strings.TrimSuffix(path, ".pb.gz")+".txt")
}

// fetch saves what url answers into path.
func fetch(client *http.Client, url, path string) error {
	resp, err := client.Get(url)
	if err != nil {
		return fmt.Errorf("heap profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("heap profile: %s", resp.Status)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(f, resp.Body)
	return err
}
