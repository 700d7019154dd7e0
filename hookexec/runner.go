package hookexec

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
)

// HookRunner is what the global and module actors need from a runner; they
// may declare a narrower interface of their own. *Runner implements it.
type HookRunner interface {
	Config(ctx context.Context, hook Hook, scope bindings.Scope) (*bindings.Config, error)
	Run(ctx context.Context, req Request) (Result, error)
	RunEnabled(ctx context.Context, req EnabledRequest) (Result, error)
}

var _ HookRunner = (*Runner)(nil)

// Options configure a Runner; only Logger and Environ need setting in
// practice.
type Options struct {
	// Logger receives the hooks' output, one record per line, with the
	// attribute hook=<name>. Nil discards.
	Logger *slog.Logger
	// TmpDir holds the per-run directories ($ADDON_OPERATOR_TMP_DIR); empty
	// is os.TempDir().
	TmpDir string
	// Environ is the operator's own environment that hooks inherit (the
	// caller passes os.Environ()), filtered by EnvAllowlist.
	Environ      []string
	EnvAllowlist EnvAllowlist
	// KeepFiles leaves each run's directory in place, for debugging.
	KeepFiles bool
	// Timeout is the default per-run limit; 0 is none.
	Timeout time.Duration
	// MaxLineBytes caps a logged output line (default 64 KiB); the rest of a
	// longer line is dropped.
	MaxLineBytes int
	// MaxOutputLines and MaxOutputBytes bound the log records of a run's
	// stream (stdout, stderr): past either, lines are dropped and one
	// record per stream says how many (DroppedOutputMessage). 0 is the
	// default, 1000 lines and 1 MiB; negative is no limit.
	MaxOutputLines int
	MaxOutputBytes int
	// StderrTailLines is how many last stderr lines an *ExitError carries
	// (default 20).
	StderrTailLines int
	// MaxConfigBytes caps the --config output (default 4 MiB).
	MaxConfigBytes int
	// OutputCaps cap the output files of a run, per kind (0: the
	// defaults, Default*MaxBytes).
	OutputCaps OutputCaps
	// ProbeTimeout bounds the `hook list` and `hook config` runs of batch
	// hook discovery (0: DefaultProbeTimeout).
	ProbeTimeout time.Duration
	// ContextWarnBytes is the binding context file size past which a run
	// is logged at WARN, once per hook and binding (0: DefaultContextWarnBytes;
	// negative: never).
	ContextWarnBytes int64
	// Now is the clock for durations; nil is time.Now.
	Now func() time.Time
}

// Runner runs hooks. Runs share nothing but the background making and
// removal of their directories; a Runner is safe for concurrent use.
type Runner struct {
	opts    Options
	environ []string // Environ filtered by the allow-list
	// background is the run directories being made ahead or removed.
	background sync.WaitGroup
	dirs       *runDirs
	// lineReaders are the output line buffers of finished runs.
	lineReaders sync.Pool
	// contexts warns of large binding context files.
	contexts *contextSizes
}

// NewRunner returns a Runner with opts, defaults filled in.
func NewRunner(opts Options) *Runner {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.TmpDir == "" {
		opts.TmpDir = os.TempDir()
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = 64 << 10
	}
	opts.MaxOutputLines = orDefault(opts.MaxOutputLines, defaultMaxOutputLines)
	opts.MaxOutputBytes = orDefault(opts.MaxOutputBytes, defaultMaxOutputBytes)
	if opts.StderrTailLines <= 0 {
		opts.StderrTailLines = 20
	}
	if opts.MaxConfigBytes <= 0 {
		opts.MaxConfigBytes = 4 << 20
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	opts.OutputCaps = opts.OutputCaps.withDefaults()
	dirs := &runDirs{tmpDir: opts.TmpDir, ahead: aheadDirs}
	if opts.KeepFiles {
		dirs.ahead = 0
	}
	return &Runner{opts: opts, environ: filterEnv(opts.Environ, opts.EnvAllowlist), dirs: dirs,
		contexts: newContextSizes(opts.ContextWarnBytes, opts.Logger)}
}

// The default output limits per run and stream.
const (
	defaultMaxOutputLines = 1000
	defaultMaxOutputBytes = 1 << 20
)

// orDefault is def for 0, 0 (no limit) for a negative n, else n.
func orDefault(n, def int) int {
	switch {
	case n == 0:
		return def
	case n < 0:
		return 0
	}
	return n
}

// Request is one run of a hook for its bindings.
type Request struct {
	Hook Hook
	// BindingContext is the JSON array the hook reads (bctx.Marshal or
	// bctx.MarshalV0); nil is [].
	BindingContext []byte
	// Contexts, when not nil, are written to the binding context file as a
	// stream instead of BindingContext (a run's refilled contexts, whose
	// shared snapshots are never copied per context).
	Contexts bctx.Array
	// Values and ConfigValues are JSON objects; nil is {}.
	Values       []byte
	ConfigValues []byte
	// Scope is what the hook's patches may touch.
	Scope PatchScope
	// Timeout overrides Options.Timeout when positive.
	Timeout time.Duration
	// Logger, when set, receives the hook's output instead of
	// Options.Logger: a module actor passes one with its module's name, as
	// module hook names are relative to the module's hooks/ directory.
	Logger *slog.Logger
	// WebhookResponses gives the run the webhook response files, empty:
	// $VALIDATING_RESPONSE_PATH (also $ADMISSION_RESPONSE_PATH) and
	// $CONVERSION_RESPONSE_PATH. Result.AdmissionResponse and
	// Result.ConversionResponse carry what the hook wrote in them.
	WebhookResponses bool
}

// Result is what a run returned. On an error from the hook itself (exit
// code, timeout) the process figures are still filled in; the patches and
// metrics are read only from a successful run.
type Result struct {
	ExitCode          int
	Duration          time.Duration
	UserCPU           time.Duration
	SysCPU            time.Duration
	MaxRSSBytes       int64
	ValuesPatch       jsonpatch.Patch
	ConfigValuesPatch jsonpatch.Patch
	Metrics           []MetricOp
	// ObjectPatches are the operations of $KUBERNETES_PATCH_PATH, parsed
	// and not yet applied (the worker applies them).
	ObjectPatches []objectpatch.Operation
	// DroppedLines is how many output lines (both streams) were not logged,
	// over the output limits.
	DroppedLines int64
	// Enabled is the enabled script's answer; nil for a hook run.
	Enabled *bool
	// AdmissionResponse and ConversionResponse are the webhook response
	// files as the hook left them, read after exit 0 of a run with
	// Request.WebhookResponses; nil when empty. Their JSON is for the
	// caller to read.
	AdmissionResponse  []byte
	ConversionResponse []byte
	// ContextBytes is the size of the binding context file the run read.
	ContextBytes int64
}

// Run runs req.Hook with its binding context and values in a private temp
// directory and reads back its patches and metrics, and its webhook
// responses when req asks for them.
func (r *Runner) Run(ctx context.Context, req Request) (Result, error) {
	var written contextWritten
	files, err := r.dirs.prepare(&r.background, func(files runFiles) []fileContent {
		return []fileContent{
			written.file(files.bindingContext, req),
			{env: EnvValuesPath, path: files.values, data: req.Values, empty: "{}"},
			{env: EnvConfigValuesPath, path: files.configValues, data: req.ConfigValues, empty: "{}"},
		}
	})
	if err != nil {
		return Result{}, fmt.Errorf("run hook %s: %w", req.Hook.Path, err)
	}
	defer r.cleanup(files)
	own := append(slices.Clip(req.Hook.Env),
		EnvBindingContextPath+"="+files.bindingContext,
		EnvValuesPath+"="+files.values,
		EnvConfigValuesPath+"="+files.configValues,
		EnvValuesJSONPatchPath+"="+files.valuesPatch,
		EnvConfigValuesJSONPatchPath+"="+files.configValuesPatch,
		EnvMetricsPath+"="+files.metrics,
		EnvKubernetesPatchPath+"="+files.kubernetesPatch,
		EnvWorkingDir+"="+req.Hook.Root,
	)
	if req.WebhookResponses {
		if err := createWebhookFiles(files); err != nil {
			return Result{}, fmt.Errorf("run hook %s: %w", req.Hook.Path, err)
		}
		own = append(own, webhookEnv(files)...)
	}
	r.contexts.check(req, written)
	res, err := r.exec(ctx, execSpec{hook: req.Hook, args: req.Hook.Args, env: hookEnv(r.environ, own...), timeout: req.Timeout, log: req.Logger})
	res.ContextBytes = written.total
	if err != nil {
		return res, err
	}
	if err := readOutputs(&res, files, req.Scope, r.opts.OutputCaps); err != nil {
		return res, fmt.Errorf("hook %s: %w", req.Hook.Path, err)
	}
	if len(req.Hook.Args) > 0 { // a nested hook of a batch executable
		DefaultGroup(res.Metrics, req.Hook.Name)
	}
	if req.WebhookResponses {
		if err := readWebhookResponses(&res, files, r.opts.OutputCaps.WebhookResponse); err != nil {
			return res, fmt.Errorf("hook %s: %w", req.Hook.Path, err)
		}
	}
	return res, nil
}

// readOutputs parses the patch and metrics files the hook wrote, each
// bounded by its cap.
func readOutputs(res *Result, files runFiles, scope PatchScope, caps OutputCaps) error {
	var err error
	res.ValuesPatch, err = readPatch(outputFile{env: EnvValuesJSONPatchPath, path: files.valuesPatch, max: caps.ValuesPatch}, scope)
	if err != nil {
		return err
	}
	res.ConfigValuesPatch, err = readPatch(outputFile{env: EnvConfigValuesJSONPatchPath, path: files.configValuesPatch, max: caps.ValuesPatch}, scope)
	if err != nil {
		return err
	}
	data, err := readOutput(outputFile{env: EnvMetricsPath, path: files.metrics, max: caps.Metrics})
	if err != nil {
		return err
	}
	if res.Metrics, err = ParseMetrics(data); err != nil {
		return fmt.Errorf("%s: %w", EnvMetricsPath, err)
	}
	res.ObjectPatches, err = readObjectPatches(outputFile{env: EnvKubernetesPatchPath, path: files.kubernetesPatch, max: caps.ObjectPatches})
	return err
}

// readPatch parses a values patch file; a file the hook removed is no
// patch.
func readPatch(f outputFile, scope PatchScope) (jsonpatch.Patch, error) {
	data, err := readOutput(f)
	if err != nil {
		return nil, err
	}
	patch, err := ParsePatch(data, scope)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.env, err)
	}
	return patch, nil
}

// cleanup hands a finished run's directory back for reuse, or removes it,
// in the background: on a disk file system, unlinking files that held data
// costs more than the rest of a run's overhead together, and nothing waits
// for it.
func (r *Runner) cleanup(files runFiles) {
	if r.opts.KeepFiles {
		r.opts.Logger.Debug("kept hook run files", slog.String("dir", files.dir))
		return
	}
	r.background.Go(func() {
		if err := r.dirs.recycle(files); err != nil {
			r.opts.Logger.Warn("remove hook run files", slog.String("dir", files.dir), slog.Any("error", err))
		}
	})
}

// Close waits until the directories of finished runs are removed, and
// removes those made ahead. Call it on shutdown; the Runner may be used
// again afterwards.
func (r *Runner) Close() {
	r.background.Wait()
	if err := r.dirs.drain(); err != nil {
		r.opts.Logger.Warn("remove hook run dirs made ahead", slog.Any("error", err))
	}
}
