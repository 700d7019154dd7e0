package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/serve"
	"github.com/addon-actors/addon-operator/messages"
)

// Options are what the handler reads.
type Options struct {
	Ready    func() bool
	Queue    func() messages.QueueSnapshot
	Registry prometheus.Gatherer
	// HookRegistry serves /metrics/hooks: what hooks write to $METRICS_PATH.
	HookRegistry prometheus.Gatherer
	// Now is the clock for "retry in" figures.
	Now func() time.Time
	// Leader, in HA mode, tells whether this replica follows and the
	// leader's host: a follower's /readyz answers with the leader's, asked
	// on LeaderPort. Nil: this replica's own readiness.
	Leader     func() (host string, following bool)
	LeaderPort int
	// Guard, if set, wraps the handlers of /metrics, /metrics/hooks and
	// /queue (ADDON_OPERATOR_HTTP_AUTH); /healthz and /readyz stay open,
	// for probes and for followers asking the leader.
	Guard func(http.Handler) http.Handler
}

// NewHandler returns the HTTP handler.
func NewHandler(opts Options) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		// A question from a follower is answered for this replica only:
		// a follower that asks a follower (a stale identity, a shared
		// address) gets its "not ready", never a loop.
		if opts.Leader != nil && r.Header.Get(followerHeader) == "" {
			if host, following := opts.Leader(); following {
				leaderReadiness(r.Context(), w, host, opts.LeaderPort)
				return
			}
		}
		// The original's codes and texts (UPSTREAM.md §4), which probes
		// and scripts written for it may match.
		if !opts.Ready() {
			http.Error(w, "Startup converge in progress", http.StatusInternalServerError)
			return
		}
		fmt.Fprintln(w, "Startup converge done.")
	})
	guard := opts.Guard
	if guard == nil {
		guard = func(h http.Handler) http.Handler { return h }
	}
	mux.Handle("GET /metrics", guard(promhttp.HandlerFor(opts.Registry, promhttp.HandlerOpts{})))
	if opts.HookRegistry != nil {
		mux.Handle("GET /metrics/hooks", guard(promhttp.HandlerFor(opts.HookRegistry, promhttp.HandlerOpts{})))
	}
	mux.Handle("GET /queue", guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		snap := PublicQueues(opts.Queue())
		if r.URL.Query().Get("format") == "json" {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(snap)
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		WriteQueues(w, snap, opts.Now())
	})))
	return noBody(mux)
}

// noBody refuses a request that comes with a body: none of the port's
// requests needs one, so none is read.
func noBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength != 0 {
			w.Header().Set("Connection", "close")
			http.Error(w, "this port takes no request bodies", http.StatusRequestEntityTooLarge)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// WriteQueues prints the queues as aligned tables, head first.
func WriteQueues(w io.Writer, snap messages.QueueSnapshot, now time.Time) {
	if len(snap.Queues) == 0 {
		fmt.Fprintln(w, "Queue 'main': length 0")
		return
	}
	for i, q := range snap.Queues {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "Queue '%s': length %d\n", q.Name, len(q.Tasks))
		if len(q.Tasks) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "#\tTASK\tSTATE\tMODULE\tHOOK\tBINDING\tATTEMPTS\tRETRY IN\tLAST ERROR")
		for n, t := range q.Tasks {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", n+1, t.Kind, state(t), Dash(moduleOf(t)), Dash(t.Hook),
				Dash(t.Binding), t.Attempts, retryIn(t, now), Dash(oneLine(t.LastError)))
		}
		_ = tw.Flush()
		for n, t := range q.Tasks {
			if t.Supersedes != "" {
				fmt.Fprintf(w, "  #%d %s\n", n+1, oneLine(t.Supersedes))
			}
			if t.Running && t.Status != "" {
				fmt.Fprintf(w, "  #%d %s\n", n+1, statusText(t, now))
			}
		}
	}
}

// moduleOf is a task's module, or the modules of a ParallelModuleRun.
func moduleOf(t messages.Task) string {
	if t.Module == "" && len(t.Modules) > 0 {
		return strings.Join(t.Modules, ",")
	}
	return t.Module
}

func state(t messages.Task) string {
	switch {
	case t.Running:
		return "running"
	case !t.NextRetry.IsZero():
		return "retrying"
	}
	return "waiting"
}

// statusText is what a running task is doing and for how long: "waiting
// for Deployment ns/web: 1/3 available, 40s".
func statusText(t messages.Task, now time.Time) string {
	if t.StatusSince.IsZero() {
		return oneLine(t.Status)
	}
	return fmt.Sprintf("%s, %s", oneLine(t.Status), max(now.Sub(t.StatusSince), 0).Round(time.Second))
}

func retryIn(t messages.Task, now time.Time) string {
	if t.Stalled {
		return "stalled"
	}
	if t.NextRetry.IsZero() || t.Running {
		return "-"
	}
	return t.NextRetry.Sub(now).Round(100 * time.Millisecond).String()
}

// Dash is s, or "-" for an empty s (a table's empty cell).
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Clip is s on one line, cut to at most limit bytes with "...".
func Clip(s string, limit int) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > limit {
		s = s[:limit-3] + "..."
	}
	return s
}

func oneLine(s string) string { return Clip(s, 120) }

// Serve listens on addr until ctx is done, then shuts down gracefully.
func Serve(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	return serve.Server{Name: "HTTP server", Handler: h, Limits: serve.DefaultLimits(), Log: log}.Run(ctx, ln)
}
