package image

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// Repository is the name the built images are tagged with (the tag is the
// key of their inputs).
const Repository = "localhost/addon-operator-imagetest"

// keep is how many built images stay in podman's storage: the newest, and
// a few that other checkouts on this machine may still be testing.
const keep = 3

// Built is an image built from deploy/Dockerfile.
type Built struct {
	Ref       string        // Repository:key
	Key       string        // of the build context and the base images
	Size      int64         // bytes, as podman reports it
	BuildTime time.Duration // of the build that made it
	BuiltAt   time.Time
	Cached    bool `json:"-"` // found, not built by this call
	// Stages are the image IDs of the Go build stages (target name to ID)
	// and Bases those of the two base images, removed with the image when
	// it is superseded and no kept image uses them.
	Stages map[string]string
	Bases  []string
	Podman Podman `json:"-"`
	Times  Times  `json:"-"` // of the call that returned it
}

// Ensure returns the image built from the repository that holds the
// working directory, building it (and the base images it needs) first when
// podman has no image of its key. It builds (or finds cached) the test
// cluster's servers too, beside the base images and before the Go stages
// (see servers). log receives a line for each step that takes time.
func Ensure(ctx context.Context, log io.Writer) (Built, error) {
	if log == nil {
		log = io.Discard
	}
	root, err := repoRoot()
	if err != nil {
		return Built{}, err
	}
	cache, err := cluster.CacheDir("image")
	if err != nil {
		return Built{}, err
	}
	p, err := newPodman(cache)
	if err != nil {
		return Built{}, err
	}
	unlock, err := cluster.LockFile(filepath.Join(cache, "build.lock"))
	if err != nil {
		return Built{}, err
	}
	defer unlock()
	// A failed image stops the servers' build rather than report after it.
	srvCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := startServers(srvCtx, log)
	b, err := ensureImage(ctx, p, root, cache, srv, log)
	if err != nil {
		cancel()
	}
	if _, serr := srv.wait(); err == nil && serr != nil {
		err = serr
	}
	b.Times.Servers = srv.took
	return b, err
}

// Times are where a call of Ensure spent its time: the servers' build (or
// finding it cached), the base images (beside the servers), the wait for
// the servers after the bases, and the podman builds.
type Times struct {
	Servers, Bases, ServersWait, Podman time.Duration
}

// ensureImage is Ensure under its lock, with the servers' build running.
func ensureImage(ctx context.Context, p Podman, root, cache string, srv *servers, log io.Writer) (Built, error) {
	ctxKey, err := contextKey(root)
	if err != nil {
		return Built{}, err
	}
	start := time.Now()
	debianID, golangID, err := bases(ctx, p, cache, log)
	if err != nil {
		return Built{}, err
	}
	times := Times{Bases: time.Since(start)}
	key := hashStrings(recipe, ctxKey, debianID, golangID)
	if b, ok, err := found(ctx, p, cache, key); err != nil || ok {
		if ok {
			fmt.Fprintf(log, "image: %s cached (its build took %s), %s\n", b.Ref, b.BuildTime.Round(time.Second), MB(b.Size))
		}
		b.Times = times
		return b, err
	}
	if times.ServersWait, err = srv.wait(); err != nil {
		return Built{}, err
	}
	podmanStart := time.Now()
	b, err := build(ctx, p, root, cache, key, log)
	if err != nil {
		return Built{}, err
	}
	times.Podman = time.Since(podmanStart)
	b.BuildTime, b.Bases, b.Times = time.Since(start)-times.ServersWait, []string{debianID, golangID}, times
	if err := writeMarker(cache, b); err != nil {
		return Built{}, err
	}
	fmt.Fprintf(log, "image: built %s in %s (bases and podman build), %s\n", b.Ref, b.BuildTime.Round(time.Second), MB(b.Size))
	prune(ctx, p, cache)
	return b, nil
}

// recipe changes when the way this package builds changes.
const recipe = "podman build --pull=never --network host; Go caches mounted into --target build, kubectl, helm; v1"

// goStages are the Dockerfile's Go build stages, run first with the host's
// Go caches mounted.
var goStages = []string{"build", "kubectl", "helm"}

// build runs podman build for each Go stage with the host's Go module and
// build caches mounted, then for the whole Dockerfile with no mounts, as a
// user would: the Go stages come from the layer cache, and no mount point
// is left in the image.
func build(ctx context.Context, p Podman, root, cache, key string, log io.Writer) (Built, error) {
	b := Built{Ref: Repository + ":" + key, Key: key, Stages: map[string]string{}, Podman: p}
	logFile := filepath.Join(cache, "build.log")
	out, err := os.Create(logFile)
	if err != nil {
		return Built{}, err
	}
	defer out.Close()
	mounts, err := goCacheMounts(ctx)
	if err != nil {
		return Built{}, err
	}
	fmt.Fprintf(log, "image: building %s with podman (log %s)\n", b.Ref, logFile)
	base := []string{"build", "--pull=never", "--network", "host", "-f", filepath.Join(root, "deploy", "Dockerfile")}
	for _, stage := range goStages {
		iid := filepath.Join(cache, "stage.iid")
		args := append(append(append([]string{}, base...), mounts...), "--target", stage, "--iidfile", iid, root)
		if err := podmanBuild(ctx, p, out, logFile, args); err != nil {
			return Built{}, err
		}
		id, err := os.ReadFile(iid)
		if err != nil {
			return Built{}, err
		}
		b.Stages[stage] = strings.TrimSpace(string(id))
	}
	if err := podmanBuild(ctx, p, out, logFile, append(base, "-t", b.Ref, root)); err != nil {
		return Built{}, err
	}
	info, _, err := p.inspect(ctx, b.Ref)
	b.Size, b.BuiltAt = info.Size, time.Now()
	return b, err
}

func podmanBuild(ctx context.Context, p Podman, out *os.File, logFile string, args []string) error {
	fmt.Fprintf(out, "\n$ podman %s\n", strings.Join(args, " "))
	cmd := p.Command(ctx, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Run(); err != nil {
		data, _ := os.ReadFile(logFile)
		return fmt.Errorf("podman %s: %w (log %s)\n%s", strings.Join(args, " "), err, logFile, cluster.Tail(string(data), 40))
	}
	return nil
}

// goCacheMounts are podman build's -v options for the host's Go module and
// build caches, where the Go build image keeps them (GOPATH=/go, HOME=/root).
func goCacheMounts(ctx context.Context) ([]string, error) {
	v, err := goEnv(ctx, "GOMODCACHE", "GOCACHE")
	if err != nil {
		return nil, err
	}
	modcache, gocache := v[0], v[1]
	var mounts []string
	if modcache != "" {
		mounts = append(mounts, "-v", modcache+":/go/pkg/mod")
	}
	if gocache != "" && gocache != "off" {
		mounts = append(mounts, "-v", gocache+":/root/.cache/go-build")
	}
	for i := 1; i < len(mounts); i += 2 {
		if err := os.MkdirAll(strings.SplitN(mounts[i], ":", 2)[0], 0o755); err != nil {
			return nil, err
		}
	}
	return mounts, nil
}

// found returns the image of key when podman has it, with the figures of
// the build that made it.
func found(ctx context.Context, p Podman, cache, key string) (Built, bool, error) {
	ref := Repository + ":" + key
	info, ok, err := p.inspect(ctx, ref)
	if err != nil || !ok {
		return Built{}, false, err
	}
	b := Built{Ref: ref, Key: key}
	if data, err := os.ReadFile(markerPath(cache, key)); err == nil {
		_ = json.Unmarshal(data, &b)
	}
	b.Size, b.Cached, b.Podman = info.Size, true, p
	return b, true, nil
}

func markerPath(cache, key string) string {
	return filepath.Join(cache, "images", key+".json")
}

func writeMarker(cache string, b Built) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(cache, "images"), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(markerPath(cache, b.Key), data)
}

// prune removes the images (with their Go build stages and base images)
// of all but the newest keep markers. A removal that fails (an image in
// use, or a parent of one that stays) is left for a later prune.
func prune(ctx context.Context, p Podman, cache string) {
	all := markers(cache)
	if len(all) <= keep {
		return
	}
	inUse := map[string]bool{}
	for _, b := range all[:keep] {
		for _, id := range append(slices.Collect(maps.Values(b.Stages)), b.Bases...) {
			inUse[id] = true
		}
	}
	for _, b := range all[keep:] {
		remove(ctx, p, b, inUse)
		os.Remove(markerPath(cache, b.Key))
	}
}

// remove removes b's image, then its stages and bases that are not in use.
func remove(ctx context.Context, p Podman, b Built, inUse map[string]bool) {
	_, _ = p.Output(ctx, "rmi", "--ignore", b.Ref)
	for _, id := range append(slices.Collect(maps.Values(b.Stages)), b.Bases...) {
		if !inUse[id] {
			_, _ = p.Output(ctx, "rmi", "--ignore", id)
		}
	}
}

// markers are the images built here, newest first.
func markers(cache string) []Built {
	files, _ := filepath.Glob(filepath.Join(cache, "images", "*.json"))
	var all []Built
	for _, f := range files {
		var b Built
		if data, err := os.ReadFile(f); err == nil && json.Unmarshal(data, &b) == nil && b.Key != "" {
			all = append(all, b)
		}
	}
	sort.Slice(all, func(i, j int) bool { return all[i].BuiltAt.After(all[j].BuiltAt) })
	return all
}

// Clean removes every image this package built or imported and its cache
// dir, for a build from cold.
func Clean(ctx context.Context) error {
	cache, err := cluster.CacheDir("image")
	if err != nil {
		return err
	}
	p, err := newPodman(cache)
	if err != nil {
		return err
	}
	unlock, err := cluster.LockFile(filepath.Join(cache, "build.lock"))
	if err != nil {
		return err
	}
	defer unlock()
	for _, b := range markers(cache) {
		remove(ctx, p, b, nil)
	}
	for ref, made := range loadMadeBases(cache) {
		if info, ok, _ := p.inspect(ctx, ref); ok && info.ID == made.ID {
			_, _ = p.Output(ctx, "rmi", "--ignore", ref)
		}
		_, _ = p.Output(ctx, "rmi", "--ignore", made.ID)
	}
	entries, err := os.ReadDir(cache)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() != "build.lock" {
			if err := os.RemoveAll(filepath.Join(cache, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// MB formats a size in bytes as podman does (decimal megabytes).
func MB(n int64) string {
	return fmt.Sprintf("%.0f MB", float64(n)/1e6)
}

// repoRoot finds the repository holding deploy/Dockerfile by walking up
// from the working directory (a test's is its package directory).
func repoRoot() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "deploy", "Dockerfile")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("deploy/Dockerfile not found above %s", wd)
		}
	}
}

func writeFileAtomic(path string, data []byte) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
