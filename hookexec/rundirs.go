package hookexec

import (
	"fmt"
	"os"
	"sync"
)

// aheadDirs is how many hook run directories a Runner keeps made ahead.
// Module runs are sequential, so one would do; a few cover the global and
// module queues running at once.
const aheadDirs = 4

// runDirs makes hook run directories ahead of time, in the background,
// with every file of a run already created empty. On a disk file system
// (the default TMPDIR, an emptyDir volume) creating a file costs 0.2–0.5 ms
// and a hook run has six plus its directory: made at run time that was
// 2–4 ms of every hook run, most of the overhead beyond the hook itself.
// A run then only truncates and writes its three inputs into files that
// exist. Each directory is still used by exactly one run and removed after
// it.
type runDirs struct {
	tmpDir string
	// ahead is how many to keep made ahead: aheadDirs, or 0 with
	// Options.KeepFiles (whoever looks at the kept directories finds only
	// those of runs).
	ahead  int
	mu     sync.Mutex
	ready  []runFiles
	making int
}

// prepare returns a run directory with inputs written: one made ahead, or
// one made now when none is ready or the one made ahead is unusable
// (someone cleaned the temp dir meanwhile). It starts making a replacement
// under bg.
func (d *runDirs) prepare(bg *sync.WaitGroup, inputs func(runFiles) []fileContent) (runFiles, error) {
	d.mu.Lock()
	var files runFiles
	ahead := len(d.ready) > 0
	if ahead {
		files = d.ready[len(d.ready)-1]
		d.ready = d.ready[:len(d.ready)-1]
	}
	d.mu.Unlock()
	d.refill(bg)
	if ahead {
		if err := writeInputs(inputs(files)...); err == nil {
			return files, nil
		}
		_ = os.RemoveAll(files.dir)
	}
	files, err := makeHookDir(d.tmpDir)
	if err != nil {
		return runFiles{}, err
	}
	if err := writeInputs(inputs(files)...); err != nil {
		_ = os.RemoveAll(files.dir)
		return runFiles{}, err
	}
	return files, nil
}

// refill makes one more directory in the background when fewer than
// d.ahead are ready or being made.
func (d *runDirs) refill(bg *sync.WaitGroup) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if len(d.ready)+d.making >= d.ahead {
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

// drain removes the directories made ahead and not used; call it once
// nothing is being made.
func (d *runDirs) drain() error {
	d.mu.Lock()
	ready := d.ready
	d.ready = nil
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
	for _, path := range []string{files.bindingContext, files.values, files.configValues,
		files.valuesPatch, files.configValuesPatch, files.metrics, files.kubernetesPatch} {
		if err := writeFile(path, nil, ""); err != nil {
			_ = os.RemoveAll(files.dir)
			return runFiles{}, fmt.Errorf("create %s: %w", path, err)
		}
	}
	return files, nil
}

// writeInputs writes each input into its file, which makeHookDir created;
// the output files stay as created, empty, so that
// `cat >> $VALUES_JSON_PATCH_PATH` and readers of them find a file.
func writeInputs(files ...fileContent) error {
	for _, f := range files {
		data := f.data
		if data == nil {
			data = []byte(f.empty)
		}
		if err := overwrite(f.path, data); err != nil {
			return fmt.Errorf("write %s: %w", f.env, err)
		}
	}
	return nil
}

// overwrite writes the content of an existing empty file, made by
// makeHookDir and used by this run only. It does not truncate: on ext4 a
// file truncated to zero and written is flushed at its close
// (auto_da_alloc), which more than doubled the cost of every input file.
func overwrite(path string, data []byte) error {
	return openAndWrite(path, os.O_WRONLY, 0, data)
}
