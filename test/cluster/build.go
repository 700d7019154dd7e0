package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// KubernetesVersion is the version the apiserver is built from and reports.
const KubernetesVersion = "v1.37.1"

// Binaries are the paths of the built servers: the control plane's two,
// what node mode adds (the other control-plane components, the kubelet and
// the pause program that the node's container image holds), and kubectl
// for tests that check what a user of kubectl sees.
type Binaries struct {
	Etcd              string
	APIServer         string
	ControllerManager string
	Scheduler         string
	Kubelet           string
	Pause             string
	Kubectl           string
}

// serverPackages are the mains of the servers module, built by one `go build`
// into one cache dir, each binary named after its package dir.
var serverPackages = []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kubelet", "pause", "kubectl"}

// serverSources are the files of the servers module whose content decides
// whether a cached build is still valid.
func serverSources() []string {
	files := []string{"go.mod", "go.sum"}
	for _, pkg := range serverPackages {
		files = append(files, pkg+"/main.go")
	}
	return files
}

// EnsureBinaries returns the cached server binaries, building them first when
// they are missing or were built from other sources. Concurrent callers (test
// binaries of several packages) wait on a file lock instead of building twice.
// log receives one line when a build starts, since a cold one takes minutes.
func EnsureBinaries(ctx context.Context, log io.Writer) (Binaries, error) {
	if log == nil {
		log = io.Discard
	}
	if dir := os.Getenv("TESTCLUSTER_BIN_DIR"); dir != "" {
		return checkBinaries(dir, false)
	}
	src, err := serversDir()
	if err != nil {
		return Binaries{}, err
	}
	key, err := sourceKey(src)
	if err != nil {
		return Binaries{}, err
	}
	cache, err := CacheDir("testcluster")
	if err != nil {
		return Binaries{}, err
	}
	dir := filepath.Join(cache, KubernetesVersion+"-"+key)
	if bins, err := checkBinaries(dir, true); err == nil {
		return bins, nil
	}
	unlock, err := LockFile(filepath.Join(cache, "build.lock"))
	if err != nil {
		return Binaries{}, err
	}
	defer unlock()
	if bins, err := checkBinaries(dir, true); err == nil {
		return bins, nil // built by another process while we waited
	}
	removeInterruptedBuilds(cache)
	fmt.Fprintf(log, "testcluster: building etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kubelet and kubectl %s into %s (a cold build takes about 14 minutes; under a bare `go test`, run `test/cluster/testcluster build` first or pass -timeout 30m)\n", KubernetesVersion, dir)
	if err := build(ctx, src, dir, log); err != nil {
		return Binaries{}, err
	}
	return checkBinaries(dir, true)
}

// removeInterruptedBuilds deletes temporary build dirs that a killed build
// left behind. It runs under the build lock, so no live build owns them.
func removeInterruptedBuilds(cache string) {
	stale, _ := filepath.Glob(filepath.Join(cache, ".build-*"))
	for _, dir := range stale {
		_ = os.RemoveAll(dir)
	}
}

// checkBinaries finds the binaries in dir: all of them (a cached build is
// whole or rebuilt), or only the control plane's two (TESTCLUSTER_BIN_DIR
// may hold just those; StartWithNode checks the rest).
func checkBinaries(dir string, all bool) (Binaries, error) {
	bins := Binaries{
		Etcd:              filepath.Join(dir, "etcd"),
		APIServer:         filepath.Join(dir, "kube-apiserver"),
		ControllerManager: filepath.Join(dir, "kube-controller-manager"),
		Scheduler:         filepath.Join(dir, "kube-scheduler"),
		Kubelet:           filepath.Join(dir, "kubelet"),
		Pause:             filepath.Join(dir, "pause"),
		Kubectl:           filepath.Join(dir, "kubectl"),
	}
	paths := []string{bins.Etcd, bins.APIServer}
	if all {
		paths = append(paths, append(bins.nodePaths(), bins.Kubectl)...)
	}
	if err := executables(paths); err != nil {
		return Binaries{}, err
	}
	return bins, nil
}

// nodePaths are the binaries that only StartWithNode runs.
func (b Binaries) nodePaths() []string {
	return []string{b.ControllerManager, b.Scheduler, b.Kubelet, b.Pause}
}

func executables(paths []string) error {
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("server binary: %w", err)
		}
		if info.Mode()&0o111 == 0 || !info.Mode().IsRegular() {
			return fmt.Errorf("server binary %s is not an executable file", p)
		}
	}
	return nil
}

// build compiles into a temporary directory and renames it into place, so an
// interrupted build never leaves a half-written binary where a later run
// would take it for a good one.
func build(ctx context.Context, src, dir string, log io.Writer) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".build-")
	if err != nil {
		return fmt.Errorf("build dir: %w", err)
	}
	defer os.RemoveAll(tmp)
	ldflags := strings.Join([]string{
		"-s", "-w",
		"-X k8s.io/component-base/version.gitVersion=" + KubernetesVersion,
		"-X k8s.io/component-base/version.gitMajor=1",
		"-X k8s.io/component-base/version.gitMinor=37",
		"-X k8s.io/component-base/version.gitTreeState=clean",
	}, " ")
	args := []string{"build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", tmp + string(filepath.Separator)}
	for _, pkg := range serverPackages {
		args = append(args, "./"+pkg)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off", "GOFLAGS=-mod=readonly")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("build servers in %s: %w\n%s", src, err, Tail(string(out), 40))
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("replace %s: %w", dir, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("move build into %s: %w", dir, err)
	}
	fmt.Fprintf(log, "testcluster: built servers in %s\n", time.Since(start).Round(time.Second))
	return nil
}

// serversDir finds test/cluster/servers by walking up from the working
// directory, which for tests is the package directory inside this repository.
func serversDir() (string, error) {
	if dir := os.Getenv("TESTCLUSTER_SERVERS_DIR"); dir != "" {
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		candidate := filepath.Join(dir, "test", "cluster", "servers")
		if _, err := os.Stat(filepath.Join(candidate, "go.mod")); err == nil {
			return candidate, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("test/cluster/servers/go.mod not found above %s (set TESTCLUSTER_SERVERS_DIR)", wd)
		}
	}
}

func sourceKey(src string) (string, error) {
	h := sha256.New()
	for _, name := range serverSources() {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return "", fmt.Errorf("hash server sources: %w", err)
		}
		fmt.Fprintf(h, "%s %d\n", name, len(data))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

var errNotRunning = errors.New("not running")
