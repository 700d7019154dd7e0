package debugapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/serve"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// Renderer renders a module's chart with its current values.
type Renderer func(ctx context.Context, module string) (string, error)

// Options are what the debug API reads.
type Options struct {
	Board     board.Reader
	Inspector *inspect.Registry
	Render    Renderer
	// Plan answers POST /plan; nil: not available.
	Plan Planner
}

// ModuleValues is the answer of /modules/NAME/values and /global/values,
// with the settings the owner's schemas mark `format: password` masked.
type ModuleValues struct {
	Config any `json:"config"` // a map, or a list for a module
	Values any `json:"values"`
	// Patches are the in-memory values patches of the owner's hooks.
	Patches json.RawMessage `json:"patches"`
}

// NewHandler returns the debug API.
func NewHandler(o Options) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /queue", func(w http.ResponseWriter, _ *http.Request) { write(w, o.Board.Queues()) })
	mux.HandleFunc("GET /modules", func(w http.ResponseWriter, _ *http.Request) { write(w, o.Board.KnownModules()) })
	mux.HandleFunc("GET /why", func(w http.ResponseWriter, _ *http.Request) { write(w, whyAll(o.Board, time.Now())) })
	mux.HandleFunc("GET /modules/{name}/why", func(w http.ResponseWriter, r *http.Request) {
		why, ok := whyOf(o.Board, r.PathValue("name"), time.Now())
		if !ok {
			noModule(w, r.PathValue("name"))
			return
		}
		write(w, why)
	})
	mux.HandleFunc("GET /config", func(w http.ResponseWriter, _ *http.Request) { write(w, o.Board.Config()) })
	mux.HandleFunc("GET /converge", func(w http.ResponseWriter, _ *http.Request) { write(w, o.Board.Converge()) })
	mux.HandleFunc("GET /hooks", func(w http.ResponseWriter, _ *http.Request) { write(w, o.Board.Hooks()) })
	mux.HandleFunc("POST /plan", handlePlan(o.Plan))
	mux.HandleFunc("GET /actors", func(w http.ResponseWriter, _ *http.Request) { write(w, o.Inspector.Snapshot()) })
	mux.HandleFunc("GET /actors/history", actorHistory(o.Inspector))
	mux.HandleFunc("GET /global/values", func(w http.ResponseWriter, _ *http.Request) { write(w, globalValues(o.Board)) })
	mux.HandleFunc("GET /modules/{name}/values", func(w http.ResponseWriter, r *http.Request) {
		v, ok := moduleValues(o.Board, r.PathValue("name"))
		if !ok {
			noModule(w, r.PathValue("name"))
			return
		}
		write(w, v)
	})
	mux.HandleFunc("GET /snapshots", func(w http.ResponseWriter, r *http.Request) {
		owner := r.URL.Query().Get("owner")
		if owner == "" {
			owner = "global"
		}
		snaps, err := snapshots(o.Board, owner, r.URL.Query().Get("hook"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		write(w, snaps)
	})
	mux.HandleFunc("GET /modules/{name}/render", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := o.Board.ModuleValues(r.PathValue("name")); !ok {
			noModule(w, r.PathValue("name"))
			return
		}
		out, err := o.Render(r.Context(), r.PathValue("name"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/yaml")
		fmt.Fprint(w, maskedManifest(out, o.Board.Secrets()))
	})
	routeProfiles(mux)
	return mux
}

// routeProfiles serves the Go runtime's profiles (heap, allocs, goroutine,
// a CPU profile, a trace) under /debug/pprof/, on the debug socket only:
// `curl --unix-socket SOCKET http://_/debug/pprof/heap > heap.pb.gz`, then
// `go tool pprof`. (Importing net/http/pprof also registers them on
// http.DefaultServeMux, which no server of the operator serves.)
func routeProfiles(mux *http.ServeMux) {
	mux.HandleFunc("GET /debug/pprof/", pprof.Index)
	mux.HandleFunc("GET /debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
}

// noModule answers 404 for a module the operator does not know.
func noModule(w http.ResponseWriter, name string) {
	http.Error(w, fmt.Sprintf("no module %q", name), http.StatusNotFound)
}

func write(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}

// Serve listens on the unix socket path (its directory created, mode 0600,
// a stale socket replaced) until ctx is done.
func Serve(ctx context.Context, path string, h http.Handler, log *slog.Logger) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("debug socket dir: %w", err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("remove stale debug socket: %w", err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("debug socket %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("debug socket %s: %w", path, err)
	}
	return serve.Server{Name: "debug API", Handler: h, Limits: serve.DefaultLimits(), Log: log}.Run(ctx, ln)
}
