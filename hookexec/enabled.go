package hookexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"
)

// EnabledRequest is one run of a module's `enabled` script.
type EnabledRequest struct {
	// Script is the module's enabled file; its Root is the module directory.
	Script Hook
	// Values (with global.enabledModules) and ConfigValues are JSON objects;
	// nil is {}.
	Values       []byte
	ConfigValues []byte
	// Timeout overrides Options.Timeout when positive.
	Timeout time.Duration
	// Logger, when set, receives the script's output instead of
	// Options.Logger (a module actor's logger, say).
	Logger *slog.Logger
}

// RunEnabled runs an enabled script with VALUES_PATH, CONFIG_VALUES_PATH and
// MODULE_ENABLED_RESULT and reads its answer into Result.Enabled. A result
// file holding neither true nor false is ErrBadEnabledResult.
func (r *Runner) RunEnabled(ctx context.Context, req EnabledRequest) (Result, error) {
	name := req.Script.Path
	files, err := newRunFiles(r.opts.TmpDir)
	if err != nil {
		return Result{}, fmt.Errorf("run enabled script %s: %w", name, err)
	}
	defer r.cleanup(files)
	err = writeAll(
		fileContent{env: EnvValuesPath, path: files.values, data: req.Values, empty: "{}"},
		fileContent{env: EnvConfigValuesPath, path: files.configValues, data: req.ConfigValues, empty: "{}"},
		fileContent{env: EnvModuleEnabledResult, path: files.enabledResult, data: nil, empty: ""},
	)
	if err != nil {
		return Result{}, fmt.Errorf("run enabled script %s: %w", name, err)
	}
	env := hookEnv(r.environ,
		EnvValuesPath+"="+files.values,
		EnvConfigValuesPath+"="+files.configValues,
		EnvModuleEnabledResult+"="+files.enabledResult,
		EnvWorkingDir+"="+req.Script.Root,
	)
	res, err := r.exec(ctx, execSpec{hook: req.Script, env: env, timeout: req.Timeout, log: req.Logger})
	if err != nil {
		return res, err
	}
	data, err := readOutput(outputFile{env: EnvModuleEnabledResult, path: files.enabledResult, max: enabledResultMaxBytes})
	if err != nil {
		return res, fmt.Errorf("enabled script %s: %w", req.Script.Path, err)
	}
	enabled, err := parseEnabled(data)
	if err != nil {
		return res, fmt.Errorf("enabled script %s: %s: %w", req.Script.Path, EnvModuleEnabledResult, err)
	}
	res.Enabled = &enabled
	return res, nil
}

func parseEnabled(data []byte) (bool, error) {
	switch string(bytes.TrimSpace(data)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	shown := bytes.TrimSpace(data)
	if len(shown) > 40 {
		shown = append(shown[:40:40], "..."...)
	}
	return false, fmt.Errorf("%w: want true or false, got %q", ErrBadEnabledResult, shown)
}

// EnabledScript returns a module's `enabled` script as a Hook (Root is the
// module directory) and whether the module has one: an executable regular
// file named enabled. A module without one is enabled by its values alone.
func EnabledScript(moduleDir string) (Hook, bool, error) {
	dir, err := filepath.Abs(moduleDir)
	if err != nil {
		return Hook{}, false, fmt.Errorf("enabled script of %s: %w", moduleDir, err)
	}
	path := filepath.Join(dir, "enabled")
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Hook{}, false, nil
	}
	if err != nil {
		return Hook{}, false, fmt.Errorf("enabled script of %s: %w", moduleDir, err)
	}
	if !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
		return Hook{}, false, fmt.Errorf("enabled script %s: not an executable file", path)
	}
	return Hook{Name: "enabled", Path: path, Root: dir}, true, nil
}
