package hookexec

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// OutputCaps bound the output files a hook writes, per kind of file: a file
// larger than its cap fails the run (ErrOutputTooLarge) before it is read,
// so that a hook gone wrong cannot make the operator hold a file of any
// size in memory. 0 is the default of that kind. Each default is far above
// what a working hook writes; the reason is at each constant.
type OutputCaps struct {
	// ValuesPatch caps $VALUES_JSON_PATCH_PATH and
	// $CONFIG_VALUES_JSON_PATCH_PATH, each.
	ValuesPatch int64
	// Metrics caps $METRICS_PATH.
	Metrics int64
	// ObjectPatches caps $KUBERNETES_PATCH_PATH.
	ObjectPatches int64
	// WebhookResponse caps $VALIDATING_RESPONSE_PATH and
	// $CONVERSION_RESPONSE_PATH, each.
	WebhookResponse int64
}

// The default caps of the output files.
const (
	// DefaultValuesPatchMaxBytes: values end up in a helm release, which
	// helm stores gzipped in one Secret (at most 1 MiB), and config values
	// in a ConfigMap (at most 1 MiB): a patch of a few MiB is already more
	// than either can hold; 64 MiB leaves room for hooks that keep large
	// internal values that never reach helm.
	DefaultValuesPatchMaxBytes = 64 << 20
	// DefaultMetricsMaxBytes: a metric operation is a line of about 200
	// bytes; 32 MiB is some 160 000 series from one run, where hooks that
	// export per-object metrics write a few thousand.
	DefaultMetricsMaxBytes = 32 << 20
	// DefaultObjectPatchesMaxBytes: an object patch may carry a whole
	// object, and the apiserver takes objects of up to 3 MiB: 64 MiB is
	// twenty objects of that size, or tens of thousands of usual ones.
	DefaultObjectPatchesMaxBytes = 64 << 20
	// DefaultWebhookResponseMaxBytes: an admission response carries at most
	// a patch of the reviewed object (apiserver bodies are at most 3 MiB),
	// a conversion response the objects of one review converted, which
	// for a list of a large custom resource is the largest: 64 MiB.
	DefaultWebhookResponseMaxBytes = 64 << 20
	// enabledResultMaxBytes: the enabled result is "true" or "false"; the
	// cap only stops a script that writes something else at length (the
	// error shows its first bytes). Not a setting.
	enabledResultMaxBytes = 4 << 10
)

// withDefaults fills each 0 with its default.
func (c OutputCaps) withDefaults() OutputCaps {
	def := func(n, d int64) int64 {
		if n <= 0 {
			return d
		}
		return n
	}
	return OutputCaps{
		ValuesPatch:     def(c.ValuesPatch, DefaultValuesPatchMaxBytes),
		Metrics:         def(c.Metrics, DefaultMetricsMaxBytes),
		ObjectPatches:   def(c.ObjectPatches, DefaultObjectPatchesMaxBytes),
		WebhookResponse: def(c.WebhookResponse, DefaultWebhookResponseMaxBytes),
	}
}

// outputFile is one output file of a run: its variable (for errors), its
// path and its cap.
type outputFile struct {
	env  string
	path string
	max  int64
}

// ErrNotRegularOutput: an output file is a symlink, a FIFO, a device or a
// directory, which the operator does not read.
var ErrNotRegularOutput = errors.New("not a regular file")

// readOutput reads an output file the hook may have written, replaced or
// removed: nil when it is missing. It does not follow a symlink in its
// place (the run would read what the link points to: /etc/passwd, or a
// file of any size), refuses what is not a regular file (a FIFO would block
// the read), and reads at most f.max bytes: a larger file is
// ErrOutputTooLarge, known from its size before anything is read, and from
// the read itself when it grows meanwhile.
func readOutput(f outputFile) ([]byte, error) {
	// Most output files are left empty: their lstat is the whole read.
	switch kind, size, err := lstatRaw(f.path); {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", f.env, err)
	case kind == fs.ModeSymlink:
		return nil, fmt.Errorf("read %s (%s): %w: a symlink", f.env, f.path, ErrNotRegularOutput)
	case kind.IsRegular() && size == 0:
		return []byte{}, nil
	}
	return openOutput(f)
}

// openOutput reads an output file that was not empty when looked at.
func openOutput(f outputFile) ([]byte, error) {
	// O_NONBLOCK: opening a FIFO for reading waits for a writer without it;
	// it changes nothing for a regular file.
	file, err := openRaw(f.path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.Is(err, syscall.ELOOP):
		return nil, fmt.Errorf("read %s (%s): %w: a symlink", f.env, f.path, ErrNotRegularOutput)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", f.env, err)
	}
	defer file.Close()
	kind, size, err := file.stat()
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.env, err)
	}
	if !kind.IsRegular() {
		return nil, fmt.Errorf("read %s (%s): %w: %s", f.env, f.path, ErrNotRegularOutput, kind.Type())
	}
	if size > f.max {
		return nil, f.tooLarge(size)
	}
	data, err := readUpTo(file, size, f.max)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", f.env, err)
	}
	if int64(len(data)) > f.max {
		return nil, f.tooLarge(int64(len(data)))
	}
	return data, nil
}

// readUpTo reads r to its end or to max+1 bytes, into a buffer of size+1
// bytes that grows only when the file grew after its size was taken (as
// os.ReadFile does, where io.ReadAll would allocate twice the size).
func readUpTo(r io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, min(size, limit)+1)
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		room := min(int64(cap(data)-len(data)), limit+1-int64(len(data)))
		n, err := r.Read(data[len(data) : len(data)+int(room)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return data, nil
}

func (f outputFile) tooLarge(size int64) error {
	return fmt.Errorf("read %s (%s): %w: %d bytes or more, the cap is %d bytes", f.env, f.path, ErrOutputTooLarge, size, f.max)
}
