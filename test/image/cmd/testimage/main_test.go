package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/image"
)

func TestAppendTimesWritesOneLinePerPart(t *testing.T) {
	file := filepath.Join(t.TempDir(), "times")
	b := image.Built{Times: image.Times{Servers: 7*time.Minute + 3*time.Second, Bases: 174 * time.Second,
		ServersWait: 4*time.Minute + 500*time.Millisecond, Podman: 61 * time.Second}}
	if err := appendTimes(file, b); err != nil {
		t.Fatal(err)
	}
	b.Cached = true
	if err := appendTimes(file, b); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	want := []string{
		"servers              7m03s  ",
		"image bases          2m54s  ",
		"image waits          4m01s  ",
		"image                1m01s  podman build",
	}
	if len(lines) != 2*len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 2*len(want), data)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %q, want it to start with %q", i, lines[i], w)
		}
	}
	if !strings.HasSuffix(lines[7], "  cached") {
		t.Errorf("a cached image's line = %q, want it to end in cached", lines[7])
	}
	if err := appendTimes("", b); err != nil {
		t.Errorf("no file set: %v", err)
	}
}

// TestMakeTestPrintsTimesWhenPartsFail runs make test's recipe with a go
// command that fails at once (false): vet and the image fail, the tests do
// not start, and the summary still comes, with the packages' time that
// .ci/run passes and the failed parts marked.
func TestMakeTestPrintsTimesWhenPartsFail(t *testing.T) {
	falseCmd, err := exec.LookPath("false")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("../../../../.ci/make-test")
	cmd.Env = append(os.Environ(), "GO="+falseCmd, "MAKE_TEST_PACKAGES=65",
		"MAKE_TEST_TIMES="+filepath.Join(t.TempDir(), "times"))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("make-test: %v, want exit status 1\n%s", err, out)
	}
	for _, re := range []string{
		`(?m)^== make test: where the time went`,
		`(?m)^packages +1m05s  \.ci/run: apt-get$`,
		`(?m)^vet +\d+m\d\ds  FAILED \(exit 1\); `,
		`(?m)^image\+servers +\d+m\d\ds  FAILED \(exit 1\); `,
		`(?m)^total +\d+m\d\ds$`,
	} {
		if !regexp.MustCompile(re).Match(out) {
			t.Errorf("output does not match %s:\n%s", re, out)
		}
	}
	if strings.Contains(string(out), "tests ") {
		t.Errorf("the tests ran after failed parts:\n%s", out)
	}
}
