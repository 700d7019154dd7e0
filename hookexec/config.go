package hookexec

import (
	"context"
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bindings"

	"github.com/addon-actors/addon-operator/hookexec/hookconfig"
)

// Config returns hook.Config when discovery read it already (a nested hook
// of a batch executable). Otherwise it runs the hook with --config in its directory, with WORKING_DIR set,
// and parses what it prints (JSON or YAML) into its binding configuration
// for scope. Errors name the hook file and the field (see hookconfig.Parse);
// they wrap ErrConfig and the bindings sentinel, or ErrHookFailed. Webhook
// bindings are parsed and checked here; the operator serves them
// (cmd/addon-operator/internal/app, webhook/server).
func (r *Runner) Config(ctx context.Context, hook Hook, scope bindings.Scope) (*bindings.Config, error) {
	if hook.Config != nil {
		return hook.Config, nil // read at discovery (a batch hook)
	}
	out, err := r.ConfigOutput(ctx, hook)
	if err != nil {
		return nil, err
	}
	cfg, err := hookconfig.Parse(out, scope)
	if err != nil {
		return nil, fmt.Errorf("%w: hook %s --config: %w", ErrConfig, hook.Path, err)
	}
	return cfg, nil
}

// ConfigOutput runs the hook with --config and returns its stdout, at most
// Options.MaxConfigBytes of it.
func (r *Runner) ConfigOutput(ctx context.Context, hook Hook) ([]byte, error) {
	env := hookEnv(r.environ, EnvWorkingDir+"="+hook.Root)
	out := &limitedBuffer{max: r.opts.MaxConfigBytes}
	if _, err := r.exec(ctx, execSpec{hook: hook, args: []string{"--config"}, env: env, stdout: out.consume}); err != nil {
		return nil, fmt.Errorf("hook %s --config: %w", hook.Path, err)
	}
	if out.overflow {
		return nil, fmt.Errorf("hook %s --config: %w: more than %d bytes", hook.Path, ErrOutputTooLarge, r.opts.MaxConfigBytes)
	}
	return out.buf.Bytes(), nil
}
