package hookexec

import (
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
)

// aheadDirs is how many hook run directories a Runner keeps made ahead.
// Module runs are sequential, so one would do; a few cover the global and
// module queues running at once.
const aheadDirs = 4

// maxFreeDirs is how many directories of finished runs a Runner keeps for
// reuse: as many as runs of it were at once, up to this (parallel module
// runs and named queues); more are removed.
const maxFreeDirs = 32

// runDirs makes hook run directories ahead of time, in the background,
// with every file of a run already created empty. On a disk file system
// (the default TMPDIR, an emptyDir volume) creating a file costs 0.2–0.5 ms
// and a hook run has six plus its directory: made at run time that was
// 2–4 ms of every hook run, most of the overhead beyond the hook itself.
// A run then only writes its three inputs into files that exist.
//
// A finished run's directory is reused when the hook left it as it found
// it: the run's files only, each a regular file (see reset). Its output
// files are emptied and the next run writes its inputs over the old ones;
// a directory is used by one run at a time. That spares the making and
// removing of eight files and a directory per run, a third of a run's
// overhead beyond the process itself. A directory the hook left anything
// else in is removed, as every directory is with Options.KeepFiles off and
// on Close.
type runDirs struct {
	tmpDir string
	// ahead is how many to keep made ahead: aheadDirs, or 0 with
	// Options.KeepFiles (whoever looks at the kept directories finds only
	// those of runs).
	ahead  int
	mu     sync.Mutex
	ready  []runFiles
	free   []runFiles // reset after a run, for the next
	making int
}

// prepare returns a run directory with inputs written: one a finished run
// left (reset), else one made ahead, else one made now (also when the one
// taken is unusable: someone cleaned the temp dir meanwhile). Taking one
// made ahead starts making a replacement under bg.
func (d *runDirs) prepare(bg *sync.WaitGroup, inputs func(runFiles) []fileContent) (runFiles, error) {
	files, reused := d.take()
	if !reused {
		d.refill(bg)
	}
	if files.dir != "" {
		if err := writeInputs(reused, inputs(files)...); err == nil {
			return files, nil
		}
		_ = os.RemoveAll(files.dir)
	}
	files, err := makeHookDir(d.tmpDir)
	if err != nil {
		return runFiles{}, err
	}
	if err := writeInputs(false, inputs(files)...); err != nil {
		_ = os.RemoveAll(files.dir)
		return runFiles{}, err
	}
	return files, nil
}

// take pops a directory: one a finished run left (reused), else one made
// ahead, else none (files.dir empty).
func (d *runDirs) take() (files runFiles, reused bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if n := len(d.free); n > 0 {
		files, d.free = d.free[n-1], d.free[:n-1]
		return files, true
	}
	if n := len(d.ready); n > 0 {
		files, d.ready = d.ready[n-1], d.ready[:n-1]
	}
	return files, false
}

// recycle keeps a finished run's directory for the next run when reset
// makes it as made, and removes it otherwise.
func (d *runDirs) recycle(files runFiles) error {
	if files.reset() {
		d.mu.Lock()
		keep := len(d.free) < maxFreeDirs
		if keep {
			d.free = append(d.free, files)
		}
		d.mu.Unlock()
		if keep {
			return nil
		}
	}
	return files.remove()
}

// refill makes one more directory in the background when fewer than
// d.ahead are free, ready or being made.
func (d *runDirs) refill(bg *sync.WaitGroup) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.free)+len(d.ready)+d.making >= d.ahead {
		return
	}
	d.making++
	bg.Go(func() {
		files, err := makeHookDir(d.tmpDir)
		d.mu.Lock()
		defer d.mu.Unlock()
		d.making--
		if err == nil {
			d.ready = append(d.ready, files)
		}
	})
}

// drain removes the directories made ahead or kept for reuse; call it
// once nothing is being made or recycled.
func (d *runDirs) drain() error {
	d.mu.Lock()
	ready := append(d.ready, d.free...)
	d.ready, d.free = nil, nil
	d.mu.Unlock()
	var first error
	for _, f := range ready {
		if err := os.RemoveAll(f.dir); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// makeHookDir makes a private run directory with the hook run's files
// created empty (see writeInputs).
func makeHookDir(tmpDir string) (runFiles, error) {
	files, err := newRunFiles(tmpDir)
	if err != nil {
		return runFiles{}, err
	}
	for _, path := range files.hookRunFiles() {
		if err := writeFile(path, nil, ""); err != nil {
			_ = os.RemoveAll(files.dir)
			return runFiles{}, fmt.Errorf("create %s: %w", path, err)
		}
	}
	return files, nil
}

// writeInputs writes each input into its file, which makeHookDir created
// (empty) or a run before wrote (reused: cut to the new length after the
// write; not truncated before it, see overwrite). The output files stay as
// they are, empty, so that `cat >> $VALUES_JSON_PATCH_PATH` and readers of
// them find a file.
func writeInputs(reused bool, files ...fileContent) error {
	for _, f := range files {
		write := f.stream
		if write == nil {
			data := f.data
			if data == nil {
				data = []byte(f.empty)
			}
			write = func(w io.Writer) (int64, error) {
				n, err := w.Write(data)
				return int64(n), err
			}
		}
		if err := overwrite(f.path, write, reused); err != nil {
			return fmt.Errorf("write %s: %w", f.env, err)
		}
	}
	return nil
}

// overwrite writes the content of an existing file, made by makeHookDir or
// reset after a run, and used by this run only; it never follows a
// symlink. It does not truncate to zero first: on ext4 a file truncated to
// zero and written is flushed at its close (auto_da_alloc), which more than
// doubled the cost of every input file. A reused file longer than what
// write wrote is cut to its length after the write.
func overwrite(path string, write func(io.Writer) (int64, error), reused bool) error {
	f, err := openRaw(path, os.O_WRONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	n, err := write(f)
	if err == nil && reused {
		err = f.Truncate(n)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
