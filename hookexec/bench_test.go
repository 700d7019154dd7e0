package hookexec

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

// Figures measured on the 2-core machine while other engineers compiled
// (load average about 5), 200 alternating runs each, medians:
//
//	tmp=disk  trivial             bare 14.8 ms  run 15.8 ms  overhead 1.0 ms  outside the process 0.83 ms
//	tmp=disk  values 1 MB         bare 14.7 ms  run 15.2 ms  overhead 0.5 ms  outside the process 1.28 ms
//	tmp=disk  500-event context   bare 15.1 ms  run 15.9 ms  overhead 0.8 ms  outside the process 0.83 ms
//	tmp=tmpfs trivial             bare 10.6 ms  run 10.9 ms  overhead 0.2 ms  outside the process 0.46 ms
//	writing 2 x 1 MB of values and removing them: 1.3 ms on disk, 0.59 ms on tmpfs
//	bctx.Marshal of 500 Event contexts (1.3 MB): 1.9 ms
//
// The bare-exec difference is noisy under load (it went below zero on some
// runs); the time outside the process is the steadier figure.

// BenchmarkRunOverhead measures the runner's overhead per hook run (temp
// files, env, process group, output readers, reading the results, removing
// the directory) over a bare exec.Command of the same trivial bash hook. The
// two are run alternately so that load from other processes hits both
// alike; the medians and their difference are reported, and the median
// time of a run spent outside the hook's process.
func BenchmarkRunOverhead(b *testing.B) {
	small := bctx.Marshal([]bctx.Context{bctx.Order("beforeHelm", nil)})
	values := []byte(`{"global":{"enabledModules":["a","b"]},"someModule":{"param1":"value1"}}`)
	for _, tmp := range benchTmpDirs(b) {
		b.Run("tmp="+tmp.name+"/trivial", func(b *testing.B) { benchOverhead(b, tmp.dir, small, values) })
		b.Run("tmp="+tmp.name+"/values-1MB", func(b *testing.B) { benchOverhead(b, tmp.dir, small, valuesOfSize(1<<20)) })
		b.Run("tmp="+tmp.name+"/context-500-events", func(b *testing.B) { benchOverhead(b, tmp.dir, contextOf500Events(), values) })
	}
}

type benchTmp struct{ name, dir string }

// benchTmpDirs are the default temp dir (a disk here: removing files that had
// data is slow on ext4 mounted with discard) and, where there is one, tmpfs,
// which is what an emptyDir with medium Memory gives a pod.
func benchTmpDirs(b *testing.B) []benchTmp {
	dirs := []benchTmp{{"disk", b.TempDir()}}
	if shm, err := os.MkdirTemp("/dev/shm", "hookexec-bench-"); err == nil {
		b.Cleanup(func() { _ = os.RemoveAll(shm) })
		dirs = append(dirs, benchTmp{"tmpfs", shm})
	}
	return dirs
}

func benchOverhead(b *testing.B, tmpDir string, bindingContext, values []byte) {
	hook := testHook(b, "trivial.sh")
	r := NewRunner(Options{TmpDir: tmpDir, Environ: baseEnv()})
	req := Request{Hook: hook, BindingContext: bindingContext, Values: values, ConfigValues: values, Scope: PatchScope{RootKey: "someModule"}}
	var bare, run, outside []time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(hook.Path)
		cmd.Dir, cmd.Env = hook.Dir(), r.environ
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(start))
		start = time.Now()
		res, err := r.Run(context.Background(), req)
		if err != nil {
			b.Fatal(err)
		}
		run = append(run, time.Since(start))
		outside = append(outside, run[len(run)-1]-res.Duration)
	}
	r.Close()
	mb, mr := median(bare), median(run)
	b.ReportMetric(float64(mb.Microseconds())/1000, "bare-median-ms")
	b.ReportMetric(float64(mr.Microseconds())/1000, "run-median-ms")
	b.ReportMetric(float64((mr-mb).Microseconds())/1000, "overhead-median-ms")
	// The time the runner spends outside the hook's process: load from
	// other processes on the machine blurs it far less than the difference.
	b.ReportMetric(float64(median(outside).Microseconds())/1000, "outside-process-median-ms")
}

// BenchmarkWriteValues1MB is the cost of preparing a run's files with 1 MB
// of values and 1 MB of config values, and removing them.
func BenchmarkWriteValues1MB(b *testing.B) {
	values := valuesOfSize(1 << 20)
	for _, tmp := range benchTmpDirs(b) {
		b.Run("tmp="+tmp.name, func(b *testing.B) { benchWriteValues(b, tmp.dir, values) })
	}
}

func benchWriteValues(b *testing.B, tmp string, values []byte) {
	b.SetBytes(int64(2 * len(values)))
	for b.Loop() {
		files, err := newRunFiles(tmp)
		if err != nil {
			b.Fatal(err)
		}
		err = writeAll(
			fileContent{env: EnvValuesPath, path: files.values, data: values, empty: "{}"},
			fileContent{env: EnvConfigValuesPath, path: files.configValues, data: values, empty: "{}"},
		)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.RemoveAll(files.dir); err != nil {
			b.Fatal(err)
		}
	}
}

func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// valuesOfSize is a values document of about n bytes.
func valuesOfSize(n int) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"global":{"enabledModules":["a"]},"someModule":{`)
	for i := 0; buf.Len() < n; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `"key%06d":%q`, i, strings.Repeat("v", 80))
	}
	buf.WriteString("}}")
	return buf.Bytes()
}

func contextOf500Events() []byte {
	contexts := make([]bctx.Context, 500)
	for i := range contexts {
		obj, _ := json.Marshal(map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": fmt.Sprintf("cm-%d", i), "namespace": "default", "labels": map[string]string{"app": "x"}},
			"data":     map[string]string{"key": strings.Repeat("d", 512)},
		})
		item := bctx.ObjectAndFilterResult{Object: obj, FilterResult: json.RawMessage(`{"app":"x"}`)}
		contexts[i] = bctx.WatchEventContext("configmaps", "Modified", item, nil)
	}
	return bctx.Marshal(contexts)
}
