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

// execSpec is one run for exec.
type execSpec struct {
	hook    Hook
	args    []string
	env     []string
	timeout time.Duration   // 0: Options.Timeout
	stdout  func(io.Reader) // nil: logged line by line
	log     *slog.Logger    // nil: Options.Logger
}

// exec runs the hook in its directory with stdout going to the given
// consumer (nil: logged line by line) and stderr logged, keeping its last
// lines for the error. It turns the outcome into the Result's process
// figures and the run's error, which names the hook file.
func (r *Runner) exec(ctx context.Context, run execSpec) (Result, error) {
	hook, timeout, stdout := run.hook, run.timeout, run.stdout
	if timeout <= 0 {
		timeout = r.opts.Timeout
	}
	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, timeout)
	}
	defer cancel()
	log := run.log
	if log == nil {
		log = r.opts.Logger
	}
	log = log.With(slog.String("hook", hook.Name))
	errTail := newTail(r.opts.StderrTailLines)
	budget := outputBudget{maxLines: r.opts.MaxOutputLines, maxBytes: r.opts.MaxOutputBytes}
	stderr := &lineLogger{log: log, stream: "stderr", maxLine: r.opts.MaxLineBytes, tail: errTail, budget: budget,
		readers: &r.lineReaders}
	loggers := []*lineLogger{stderr}
	if stdout == nil {
		out := &lineLogger{log: log, stream: "stdout", maxLine: r.opts.MaxLineBytes, budget: budget, readers: &r.lineReaders}
		stdout, loggers = out.consume, append(loggers, out)
	}
	path, err := filepath.Abs(hook.Path) // the hook runs in its own directory
	if err != nil {
		return Result{}, fmt.Errorf("run hook %s: %w", hook.Path, err)
	}
	file, argv := command(path, run.args, run.env, hook.Dir())
	stats, err := runProcess(runCtx, procSpec{
		path: file, argv0: argv[0], args: argv[1:], dir: hook.Dir(), env: run.env,
		stdout: stdout, stderr: stderr.consume, now: r.opts.Now,
	})
	res := Result{
		ExitCode: stats.exitCode, Duration: stats.duration,
		UserCPU: stats.userCPU, SysCPU: stats.sysCPU, MaxRSSBytes: stats.maxRSS,
	}
	for _, l := range loggers { // runProcess waited for them
		res.DroppedLines += l.budget.droppedLines
	}
	switch cmdline := hook.Command(); {
	case err != nil && ctx.Err() != nil:
		return res, fmt.Errorf("hook %s: %w: %w", cmdline, ErrCanceled, context.Cause(ctx))
	case err != nil && errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return res, fmt.Errorf("hook %s %w after %s (its limit), killed with its process group%s", cmdline, ErrTimeout, timeout, tailText(errTail))
	case err != nil:
		return res, fmt.Errorf("run hook %s: %w", cmdline, err)
	case stats.exitCode != 0:
		return res, &ExitError{Hook: cmdline, Code: stats.exitCode, StderrTail: errTail.last()}
	}
	return res, nil
}

func tailText(t *tail) string {
	lines := t.last()
	if len(lines) == 0 {
		return ""
	}
	s := StderrTailMark
	for _, l := range lines {
		s += "\n" + l
	}
	return s
}
