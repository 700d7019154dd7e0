package hookexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// DefaultProbeTimeout bounds `hook list` and `hook config` of a batch
// hook candidate when Options.ProbeTimeout is 0.
const DefaultProbeTimeout = 10 * time.Second

// maxBatchItems is the largest item count of `hook list` (module-sdk).
const maxBatchItems = 9999

// batchHooks probes h with `hook list`; for a batch executable it reads
// `hook config` and returns its nested hooks (nil for a shell hook), and
// whether one of them is the readiness hook.
func (r *Runner) batchHooks(ctx context.Context, h Hook, owner Owner) ([]Hook, bool, error) {
	probe := h
	probe.Args = []string{"hook", "list"}
	out, err := r.capture(ctx, probe, []string{}) // an empty environment, as addon-operator probes
	switch {
	case errors.Is(err, ErrTimeout) || errors.Is(err, ErrCanceled):
		return nil, false, fmt.Errorf("probe batch hook %s: %w", h.Path, err)
	case err != nil || !listsItems(out):
		// a failed probe (exit code, no start): not a batch executable,
		// so a shell hook that --config configures or reports as before
		return nil, false, nil
	}
	cfgRun := h
	cfgRun.Args = []string{"hook", "config"}
	out, err = r.capture(ctx, cfgRun, hookEnv(r.environ, EnvWorkingDir+"="+h.Root))
	if err != nil {
		return nil, false, fmt.Errorf("%w: batch hook %s: %w", ErrConfig, h.Path, err)
	}
	cfg, err := hookconfig.ParseBatch(out, owner.Scope)
	if err != nil {
		return nil, false, fmt.Errorf("%w: batch hook %s `hook config`: %w", ErrConfig, h.Path, err)
	}
	r.opts.Logger.Info("batch hook found", slog.String("file", h.Path), slog.Int("hooks", len(cfg.Hooks)),
		slog.Bool("readiness", cfg.Readiness != nil))
	return nestedHooks(h, owner, cfg), cfg.Readiness != nil, nil
}

// capture runs h with env and returns its stdout, bounded by the probe
// timeout and Options.MaxConfigBytes.
func (r *Runner) capture(ctx context.Context, h Hook, env []string) ([]byte, error) {
	out := &limitedBuffer{max: r.opts.MaxConfigBytes}
	timeout := r.opts.ProbeTimeout
	if timeout <= 0 {
		timeout = DefaultProbeTimeout
	}
	if _, err := r.exec(ctx, execSpec{hook: h, args: h.Args, env: env, timeout: timeout, stdout: out.consume}); err != nil {
		return nil, err
	}
	if out.overflow {
		return nil, fmt.Errorf("%s: %w: more than %d bytes", h.Command(), ErrOutputTooLarge, r.opts.MaxConfigBytes)
	}
	return out.buf.Bytes(), nil
}

// listsItems says whether `hook list` printed `Found N items` with N in
// 1..9999, as module-sdk does.
func listsItems(out []byte) bool {
	for line := range bytes.Lines(out) {
		_, rest, ok := strings.Cut(string(line), "Found ")
		if !ok {
			continue
		}
		count, tail, ok := strings.Cut(rest, " items")
		n, err := strconv.Atoi(count)
		if ok && err == nil && n >= 1 && n <= maxBatchItems && (tail == "" || tail[0] == ':' || tail[0] == '\n') {
			return true
		}
	}
	return false
}

// nestedHooks are the hooks of a batch executable, named as addon-operator
// names them: `<h>:<metadata.name>:<key>` in a module and
// `<h>-<metadata.name>-<key>` in the global scope, the readiness hook
// `<h>-readiness`, where <h> is the file's path from its hooks/ segment on
// (a module's name; "hooks/bin" in a global dir's hooks/), else its name.
func nestedHooks(h Hook, owner Owner, cfg *hookconfig.BatchConfig) []Hook {
	base, sep := h.Name, "-"
	if owner.Scope == bindings.ScopeModule {
		sep = ":"
	} else if i := strings.Index(h.Path, "/"+moduleHooksDir+"/"); i >= 0 {
		base = h.Path[i+1:]
	}
	env := []string{"MODULE_NAME=" + owner.moduleName(), "APPLICATION_NAME=", "APPLICATION_NAMESPACE="}
	out := make([]Hook, 0, len(cfg.Hooks)+1)
	for _, b := range cfg.Hooks {
		n := h
		n.Name = base + sep + b.Name + sep + b.Key
		n.Args, n.Env, n.Config = []string{"hook", "run", b.Key}, env, b.Config
		out = append(out, n)
	}
	if ready := cfg.Readiness; ready != nil {
		n := h
		n.Name = base + "-readiness"
		n.Args, n.Env, n.Config = []string{"hook", "ready"}, env, ready.Config
		out = append(out, n)
	}
	return out
}
