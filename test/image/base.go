package image

import (
	"archive/tar"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// The names deploy/Dockerfile starts FROM, as podman stores them.
const (
	debianRef = "docker.io/library/debian:bookworm-slim"
	golangRef = "docker.io/library/golang:1.26"
	debSuite  = "bookworm"
)

// debianArgs make what debian:bookworm-slim is: minbase, /usr merged with
// usr-is-merged (not usrmerge, which pulls perl), no docs, man pages or
// locales, and apt keeping no package caches (the official image's
// docker-clean), for later installs too: mmdebstrap writes these options
// into the image's dpkg and apt config.
var debianArgs = []string{"--variant=minbase", "--mode=root", "--format=tar",
	"--hook-dir=/usr/share/mmdebstrap/hooks/merged-usr",
	"--dpkgopt=path-exclude=/usr/share/man/*", "--dpkgopt=path-exclude=/usr/share/doc/*",
	"--dpkgopt=path-include=/usr/share/doc/*/copyright", "--dpkgopt=path-exclude=/usr/share/locale/*",
	"--dpkgopt=path-exclude=/usr/share/info/*",
	`--aptopt=Dir::Cache::pkgcache ""`, `--aptopt=Dir::Cache::srcpkgcache ""`, `--aptopt=Acquire::Languages "none"`,
	`--aptopt=DPkg::Post-Invoke { "rm -f /var/cache/apt/archives/*.deb /var/cache/apt/archives/partial/*.deb /var/cache/apt/*.bin || true"; }`}

// caBundle is the host's CA bundle, which the Go build image trusts: HTTPS
// to the Go module proxy may pass an intercepting CA that only it knows.
const caBundle = "/etc/ssl/certs/ca-certificates.crt"

// bases makes sure both base names exist, made here when missing or made
// here from other inputs, and returns their image IDs.
func bases(ctx context.Context, p Podman, cache string, log io.Writer) (debianID, golangID string, err error) {
	mirrors, err := debianMirrors(debSuite)
	if err != nil {
		return "", "", err
	}
	made := loadMadeBases(cache)
	debKey := hashStrings(append(append([]string{debSuite}, debianArgs...), mirrors...)...)
	tarball := filepath.Join(cache, "debian-"+debSuite+"-"+debKey+".tar")
	makeTar := func() error { return debootstrap(ctx, tarball, mirrors, log) }
	debianID, err = ensureBase(ctx, p, made, debianRef, debKey, log, makeTar,
		func(w io.Writer) error { return copyFile(w, tarball) }, `CMD ["bash"]`)
	if err != nil {
		return "", "", err
	}
	goroot, goVersion, err := hostGo(ctx)
	if err != nil {
		return "", "", err
	}
	ca, err := os.ReadFile(caBundle)
	if err != nil {
		return "", "", fmt.Errorf("the host's CA bundle: %w", err)
	}
	goKey := hashStrings(debianID, goroot, goVersion, string(ca))
	golangID, err = ensureBase(ctx, p, made, golangRef, goKey, log, makeTar,
		func(w io.Writer) error { return goImageTar(w, tarball, goroot, ca) },
		"ENV PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"ENV GOLANG_VERSION="+strings.TrimPrefix(goVersion, "go"), "ENV GOTOOLCHAIN=local", "ENV GOPATH=/go",
		"WORKDIR /go", `CMD ["bash"]`)
	if err != nil {
		return "", "", err
	}
	return debianID, golangID, made.save(cache)
}

// madeBases are the base images made here: ref to the key of its inputs
// and its image ID. Kept in the cache dir rather than as a label, which
// every image built FROM the base would inherit.
type madeBases map[string]struct{ Key, ID string }

func loadMadeBases(cache string) madeBases {
	made := madeBases{}
	if data, err := os.ReadFile(filepath.Join(cache, "bases.json")); err == nil {
		_ = json.Unmarshal(data, &made)
	}
	return made
}

func (m madeBases) save(cache string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(cache, "bases.json"), data)
}

// ensureBase returns the ID of ref. When ref is missing, or is the image
// made here from another key, it runs prepare and imports the tar that
// write makes. A ref that was not made here (pulled from a registry) is
// used as it is.
func ensureBase(ctx context.Context, p Podman, made madeBases, ref, key string, log io.Writer,
	prepare func() error, write func(io.Writer) error, changes ...string) (string, error) {
	info, ok, err := p.inspect(ctx, ref)
	if err != nil {
		return "", err
	}
	if ok && (made[ref].ID != info.ID || made[ref].Key == key) {
		if made[ref].ID != info.ID {
			fmt.Fprintf(log, "image: using %s as it is (not made by this package)\n", ref)
		}
		return info.ID, nil
	}
	if err := prepare(); err != nil {
		return "", err
	}
	start := time.Now()
	id, err := podmanImport(ctx, p, ref, write, changes)
	if err != nil {
		return "", err
	}
	made[ref] = struct{ Key, ID string }{key, id}
	fmt.Fprintf(log, "image: imported %s in %s\n", ref, time.Since(start).Round(100*time.Millisecond))
	return id, nil
}

// podmanImport imports what write writes as ref and returns its ID.
func podmanImport(ctx context.Context, p Podman, ref string, write func(io.Writer) error, changes []string) (string, error) {
	args := []string{"import", "--quiet"}
	for _, c := range changes {
		args = append(args, "--change", c)
	}
	cmd := p.Command(ctx, append(args, "-", ref)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return "", err
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("podman import %s: %w", ref, err)
	}
	writeErr := write(stdin)
	stdin.Close()
	if err := cmd.Wait(); err != nil || writeErr != nil {
		return "", fmt.Errorf("podman import %s: %v, %v\n%s", ref, writeErr, err, cluster.Tail(stderr.String(), 20))
	}
	id := strings.TrimPrefix(strings.TrimSpace(stdout.String()), "sha256:")
	if id == "" {
		return "", fmt.Errorf("podman import %s printed no image ID", ref)
	}
	return id, nil
}

// debootstrap makes the Debian tarball unless it is cached.
func debootstrap(ctx context.Context, tarball string, mirrors []string, log io.Writer) error {
	if _, err := os.Stat(tarball); err == nil {
		return nil
	}
	if _, err := exec.LookPath("mmdebstrap"); err != nil {
		return fmt.Errorf("mmdebstrap not found (apt-get install mmdebstrap; .ci/run does): %w", err)
	}
	start := time.Now()
	tmp := tarball + ".tmp"
	args := append(append(append([]string{}, debianArgs...), debSuite, tmp), mirrors...)
	out, err := exec.CommandContext(ctx, "mmdebstrap", args...).CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("mmdebstrap %s: %w\n%s", strings.Join(args, " "), err, cluster.Tail(string(out), 20))
	}
	if err := os.Rename(tmp, tarball); err != nil {
		return err
	}
	stale, _ := filepath.Glob(filepath.Join(filepath.Dir(tarball), "debian-*.tar"))
	for _, f := range stale {
		if f != tarball {
			os.Remove(f)
		}
	}
	fmt.Fprintf(log, "image: made %s with mmdebstrap in %s\n", filepath.Base(tarball), time.Since(start).Round(100*time.Millisecond))
	return nil
}

// hostGo is the host's GOROOT and Go version.
func hostGo(ctx context.Context) (goroot, version string, err error) {
	v, err := goEnv(ctx, "GOROOT", "GOVERSION")
	if err != nil {
		return "", "", err
	}
	if v[0] == "" || v[1] == "" {
		return "", "", fmt.Errorf("go env GOROOT GOVERSION: %q", v)
	}
	goroot, err = filepath.EvalSymlinks(v[0])
	return goroot, v[1], err
}

// goEnv is the values of `go env NAMES...`, one per name (empty when unset).
func goEnv(ctx context.Context, names ...string) ([]string, error) {
	out, err := exec.CommandContext(ctx, "go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go env %s: %w", strings.Join(names, " "), err)
	}
	v := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(v) != len(names) {
		return nil, fmt.Errorf("go env %s: %q", strings.Join(names, " "), out)
	}
	return v, nil
}

// goImageTar writes the Go build image's tar: the Debian tarball, the
// host's GOROOT at /usr/local/go, the CA bundle, and GOPATH=/go as the
// official image has it (world-writable dirs).
func goImageTar(w io.Writer, debianTar, goroot string, ca []byte) error {
	tw := tar.NewWriter(w)
	if err := copyTar(tw, debianTar); err != nil {
		return err
	}
	now := time.Now()
	for _, dir := range []string{"./go/", "./go/bin/", "./go/src/"} {
		hdr := &tar.Header{Typeflag: tar.TypeDir, Name: dir, Mode: 0o1777, ModTime: now}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
	}
	for _, dir := range []string{"./etc/ssl/", "./etc/ssl/certs/"} {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: dir, Mode: 0o755, ModTime: now}); err != nil {
			return err
		}
	}
	hdr := &tar.Header{Typeflag: tar.TypeReg, Name: "." + caBundle, Mode: 0o644, Size: int64(len(ca)), ModTime: now}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := tw.Write(ca); err != nil {
		return err
	}
	if err := addTree(tw, goroot, "./usr/local/go"); err != nil {
		return err
	}
	return tw.Close()
}

func copyTar(tw *tar.Writer, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", file, err)
		}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if _, err := io.Copy(tw, tr); err != nil {
			return err
		}
	}
}

// addTree writes the tree at dir into tw under name, owned by root.
func addTree(tw *tar.Writer, dir, name string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		var link string
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		hdr.Name = name
		if rel != "." {
			hdr.Name += "/" + filepath.ToSlash(rel)
		}
		if d.IsDir() {
			hdr.Name += "/"
		}
		hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "root", "root"
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		return copyFile(tw, p)
	})
}

func copyFile(w io.Writer, file string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}

func hashStrings(parts ...string) string {
	h := sha256.New()
	for _, s := range parts {
		fmt.Fprintf(h, "%d:%s\n", len(s), s)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
