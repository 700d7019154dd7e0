package hookexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"time"
)

// exec runs the hook in its directory with stdout going to the given
// consumer (nil: logged line by line) and stderr logged, keeping its last
// lines for the error. It turns the outcome into the Result's process
// figures and the run's error, which names the hook file.
func (r *Runner) exec(ctx context.Context, hook Hook, args, env []string, timeout time.Duration, stdout func(io.Reader)) (Result, error) {
	if timeout <= 0 {
		timeout = r.opts.Timeout
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	log := r.opts.Logger.With(slog.String("hook", hook.Name))
	errTail := newTail(r.opts.StderrTailLines)
	stderr := &lineLogger{log: log, stream: "stderr", maxLine: r.opts.MaxLineBytes, tail: errTail}
	if stdout == nil {
		stdout = (&lineLogger{log: log, stream: "stdout", maxLine: r.opts.MaxLineBytes}).consume
	}
	path, err := filepath.Abs(hook.Path) // the hook runs in its own directory
	if err != nil {
		return Result{}, fmt.Errorf("run hook %s: %w", hook.Path, err)
	}
	stats, err := runProcess(runCtx, procSpec{
		path: path, args: args, dir: hook.Dir(), env: env,
		stdout: stdout, stderr: stderr.consume, now: r.opts.Now,
	})
	res := Result{
		ExitCode: stats.exitCode, Duration: stats.duration,
		UserCPU: stats.userCPU, SysCPU: stats.sysCPU, MaxRSSBytes: stats.maxRSS,
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return res, fmt.Errorf("hook %s: %w: %w", hook.Path, ErrCanceled, context.Cause(ctx))
	case err != nil && errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return res, fmt.Errorf("hook %s: %w after %s, killed with its process group%s", hook.Path, ErrTimeout, timeout, tailText(errTail))
	case err != nil:
		return res, fmt.Errorf("run hook %s: %w", hook.Path, err)
	case stats.exitCode != 0:
		return res, &ExitError{Hook: hook.Path, Code: stats.exitCode, StderrTail: errTail.last()}
	}
	return res, nil
}

func tailText(t *tail) string {
	lines := t.last()
	if len(lines) == 0 {
		return ""
	}
	s := "; last stderr lines:"
	for _, l := range lines {
		s += "\n" + l
	}
	return s
}
