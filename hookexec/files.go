package hookexec

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// runFiles are the files of one run in its private directory (0700; files
// 0600): the inputs the runner writes and the outputs the hook may write.
type runFiles struct {
	dir               string
	bindingContext    string
	values            string
	configValues      string
	valuesPatch       string
	configValuesPatch string
	metrics           string
	kubernetesPatch   string
	enabledResult     string
	// The webhook response files, made only for a run that asks for them
	// (webhookFiles).
	admissionResponse  string
	conversionResponse string
}

func newRunFiles(tmpDir string) (runFiles, error) {
	dir, err := os.MkdirTemp(tmpDir, "hook-")
	if err != nil {
		return runFiles{}, fmt.Errorf("temp dir: %w", err)
	}
	at := func(name string) string { return filepath.Join(dir, name) }
	return runFiles{
		dir:                dir,
		bindingContext:     at("binding_context.json"),
		values:             at("values.json"),
		configValues:       at("config_values.json"),
		valuesPatch:        at("values_json_patch.json"),
		configValuesPatch:  at("config_values_json_patch.json"),
		metrics:            at("metrics.json"),
		kubernetesPatch:    at("kubernetes_patch.yaml"),
		enabledResult:      at("enabled_result"),
		admissionResponse:  at("admission_response.json"),
		conversionResponse: at("conversion_response.json"),
	}, nil
}

// remove removes the run's directory: its known files by name, then the
// directory, which skips the reading of the directory os.RemoveAll does; a
// directory that still has entries (the hook left files of its own there)
// is removed with os.RemoveAll.
func (f runFiles) remove() error {
	for _, path := range []string{f.bindingContext, f.values, f.configValues, f.valuesPatch,
		f.configValuesPatch, f.metrics, f.kubernetesPatch, f.enabledResult, f.admissionResponse, f.conversionResponse} {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return os.RemoveAll(f.dir)
		}
	}
	if err := os.Remove(f.dir); err != nil {
		return os.RemoveAll(f.dir)
	}
	return nil
}

// reset makes a finished hook run's directory as makeHookDir made it, for
// the next run: true when it holds exactly the run's files, each a regular
// file with the modes it was made with (not a symlink the hook put in its
// place, nothing it opened to others), and its output files are emptied
// (the enabled script's result, which only enabled runs have, is not a
// hook run's: such a directory is not reset). The webhook response files,
// which only webhook runs have, are removed. Anything else is false, and
// the directory is for removing.
func (f runFiles) reset() bool {
	var st syscall.Stat_t
	if err := syscall.Lstat(f.dir, &st); err != nil || fileType(st.Mode) != fs.ModeDir || st.Mode&0o777 != 0o700 {
		return false
	}
	names, err := dirNames(f.dir)
	if err != nil {
		return false
	}
	paths, found := f.hookRunFiles(), 0
	for _, name := range names { // names are unique: every run file is looked at
		path := filepath.Join(f.dir, name)
		// lstat: a symlink is not regular
		if err := syscall.Lstat(path, &st); err != nil || fileType(st.Mode) != 0 || st.Mode&0o777 != 0o600 {
			return false
		}
		switch {
		case slices.Contains(paths, path):
			found++
			if isOutput(f, path) && st.Size > 0 && os.Truncate(path, 0) != nil {
				return false
			}
		case slices.Contains(f.webhookFiles(), path):
			if os.Remove(path) != nil {
				return false
			}
		default:
			return false
		}
	}
	return found == len(paths)
}

// dirNames are the names in dir (without . and ..), read with plain
// system calls (os.ReadDir costs four more to open the directory).
func dirNames(dir string) ([]string, error) {
	d, err := openRaw(dir, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	var names []string
	buf := make([]byte, 4096)
	for {
		n, err := syscall.ReadDirent(d.fd, buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: dir, Err: err}
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
}

// isOutput tells the files a hook writes from those it reads.
func isOutput(f runFiles, path string) bool {
	return path == f.valuesPatch || path == f.configValuesPatch || path == f.metrics || path == f.kubernetesPatch
}

// hookRunFiles are the files of a hook run's directory (an enabled
// script's has others).
func (f runFiles) hookRunFiles() []string {
	return []string{f.bindingContext, f.values, f.configValues, f.valuesPatch, f.configValuesPatch, f.metrics,
		f.kubernetesPatch}
}

// webhookFiles are the response files of a webhook run, created empty
// when the run asks for them.
func (f runFiles) webhookFiles() []string {
	return []string{f.admissionResponse, f.conversionResponse}
}

// writeFile writes data, or empty when data is nil, to a new 0600 file. The
// output files are created empty so that `cat >> $VALUES_JSON_PATCH_PATH`
// and readers of them find a file.
func writeFile(path string, data []byte, empty string) error {
	if data == nil {
		data = []byte(empty)
	}
	return openAndWrite(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600, data)
}

// openAndWrite opens path with flag (and perm for a new file), writes data
// and closes it, returning the first error.
func openAndWrite(path string, flag int, perm os.FileMode, data []byte) error {
	f, err := os.OpenFile(path, flag, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeAll writes each path with its content; names are the variables, for
// errors.
func writeAll(files ...fileContent) error {
	for _, f := range files {
		if err := writeFile(f.path, f.data, f.empty); err != nil {
			return fmt.Errorf("write %s: %w", f.env, err)
		}
	}
	return nil
}

type fileContent struct {
	env   string
	path  string
	data  []byte
	empty string // written when data is nil
	// stream, when set, writes the content instead of data, returning
	// the bytes written.
	stream func(io.Writer) (int64, error)
}
