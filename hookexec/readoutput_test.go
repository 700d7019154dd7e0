package hookexec

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
)

// smallCaps are caps of 1000 bytes for every kind, so that a test hook
// passes them with little data.
var smallCaps = OutputCaps{ValuesPatch: 1000, Metrics: 1000, ObjectPatches: 1000, WebhookResponse: 1000}

// outputVars are the output files of a hook run, by variable.
var outputVars = []string{EnvValuesJSONPatchPath, EnvConfigValuesJSONPatchPath, EnvMetricsPath,
	EnvKubernetesPatchPath, EnvValidatingResponsePath, EnvConversionResponsePath}

// runWriteOutput runs write-output.sh writing into the file of variable as
// mode says, with caps (and the webhook response files).
func runWriteOutput(t *testing.T, caps OutputCaps, variable, mode string) (Result, error) {
	t.Helper()
	r := newRunner(t, Options{TmpDir: t.TempDir(), OutputCaps: caps,
		Environ: baseEnv("OUTPUT_VAR="+variable, "OUTPUT_MODE="+mode)})
	return r.Run(context.Background(), Request{Hook: testHook(t, "write-output.sh"),
		Scope: PatchScope{RootKey: "global"}, WebhookResponses: true})
}

// TestOutputAtTheCapIsRead: a file of exactly its cap is read.
func TestOutputAtTheCapIsRead(t *testing.T) {
	for _, v := range outputVars {
		t.Run(v, func(t *testing.T) {
			res, err := runWriteOutput(t, smallCaps, v, "spaces 1000")
			if err != nil {
				t.Fatal(err)
			}
			if v == EnvValidatingResponsePath {
				wantEq(t, "admission response bytes", len(res.AdmissionResponse), 1000)
			}
		})
	}
}

// TestOutputOverTheCapFailsTheRun: one byte past its cap fails the run with
// an error naming the file's variable, its path and the cap.
func TestOutputOverTheCapFailsTheRun(t *testing.T) {
	for _, v := range outputVars {
		t.Run(v, func(t *testing.T) {
			_, err := runWriteOutput(t, smallCaps, v, "spaces 1001")
			wantErr(t, err, ErrOutputTooLarge, "write-output.sh", v+" (/", "1001 bytes", "the cap is 1000 bytes")
		})
	}
}

// TestOutputSymlinkIsRefused: a symlink in the place of an output file is
// not followed, whether to /etc/passwd or to a file far over the cap.
func TestOutputSymlinkIsRefused(t *testing.T) {
	large := filepath.Join(t.TempDir(), "large")
	if err := os.WriteFile(large, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/etc/passwd", large} {
		for _, v := range []string{EnvMetricsPath, EnvValuesJSONPatchPath, EnvKubernetesPatchPath, EnvConversionResponsePath} {
			t.Run(v+" to "+filepath.Base(target), func(t *testing.T) {
				res, err := runWriteOutput(t, OutputCaps{}, v, "link "+target)
				wantErr(t, err, ErrNotRegularOutput, v, "symlink")
				wantEq(t, "metrics read", len(res.Metrics), 0)
			})
		}
	}
}

// TestOutputFIFOIsRefused: a FIFO in the place of an output file, which
// nobody writes, fails the run at once instead of blocking it.
func TestOutputFIFOIsRefused(t *testing.T) {
	_, err := runWriteOutput(t, OutputCaps{}, EnvMetricsPath, "fifo")
	wantErr(t, err, ErrNotRegularOutput, EnvMetricsPath, "p---------")
}

// TestEnabledResultOverItsCap: an enabled script that writes kilobytes in
// its result fails naming MODULE_ENABLED_RESULT and the cap.
func TestEnabledResultOverItsCap(t *testing.T) {
	r := newRunner(t, Options{TmpDir: t.TempDir(),
		Environ: baseEnv("OUTPUT_VAR="+EnvModuleEnabledResult, fmt.Sprintf("OUTPUT_MODE=spaces %d", enabledResultMaxBytes+1))})
	_, err := r.RunEnabled(context.Background(), EnabledRequest{Script: testHook(t, "write-output.sh")})
	wantErr(t, err, ErrOutputTooLarge, EnvModuleEnabledResult, fmt.Sprintf("the cap is %d bytes", enabledResultMaxBytes))
}

// TestMetricsFileOf128MiBIsNotRead: a 128 MiB metrics file, four times the
// default cap, fails the run without being read: the heap allocated during
// the whole run stays far below the file's size (runtime metrics, not
// time).
func TestMetricsFileOf128MiBIsNotRead(t *testing.T) {
	const size = 128 << 20
	var res Result
	var err error
	allocated := heapAllocated(func() {
		res, err = runWriteOutput(t, OutputCaps{}, EnvMetricsPath, fmt.Sprintf("sparse %d", size))
	})
	wantErr(t, err, ErrOutputTooLarge, EnvMetricsPath, fmt.Sprintf("%d bytes or more, the cap is %d bytes", size, DefaultMetricsMaxBytes))
	wantEq(t, "metrics", len(res.Metrics), 0)
	t.Logf("heap allocated by the run: %d bytes", allocated)
	if allocated > 4<<20 {
		t.Errorf("the run allocated %d bytes of heap, want under 4 MiB for a file it refuses", allocated)
	}
}

// TestReadOutputAllocatesTheFileOnce: a file just under its cap is read
// into one buffer of its size, not the doubling buffers of io.ReadAll.
func TestReadOutputAllocatesTheFileOnce(t *testing.T) {
	const size = 16 << 20
	path := filepath.Join(t.TempDir(), "metrics.json")
	if err := os.WriteFile(path, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	var data []byte
	var err error
	allocated := heapAllocated(func() {
		data, err = readOutput(outputFile{env: EnvMetricsPath, path: path, max: size})
	})
	if err != nil {
		t.Fatal(err)
	}
	wantEq(t, "bytes read", len(data), size)
	t.Logf("heap allocated reading %d bytes: %d bytes", size, allocated)
	if allocated > size+64<<10 {
		t.Errorf("reading %d bytes allocated %d bytes of heap, want at most 64 KiB more", size, allocated)
	}
}

// heapAllocated is the heap that f allocates, counted by the runtime
// (cumulative, so a collection during f does not hide anything).
func heapAllocated(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	runtime.GC()
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}
