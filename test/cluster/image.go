package cluster

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// PauseImage is the node's one image, built from servers/pause and imported
// into containerd at start: the sandbox of every pod, and a container that
// waits for a signal (no arguments) or prints its arguments and exits 0.
// Pods use it with imagePullPolicy Never: no registry is reachable.
const PauseImage = "localhost/testcluster/pause:v1"

const (
	mediaManifest = "application/vnd.oci.image.manifest.v1+json"
	mediaConfig   = "application/vnd.oci.image.config.v1+json"
	mediaLayer    = "application/vnd.oci.image.layer.v1.tar"
)

type descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int               `json:"size"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// pauseImageArchive lays out an OCI image archive by hand (one layer holding
// /pause, its config, a manifest and the index naming it PauseImage), which
// `ctr images import` reads; no image tool or registry is involved.
func pauseImageArchive(pause []byte) ([]byte, error) {
	layer, err := tarOf([]tarFile{{name: "pause", mode: 0o755, data: pause}})
	if err != nil {
		return nil, err
	}
	config, _ := json.Marshal(map[string]any{
		"architecture": runtime.GOARCH,
		"os":           "linux",
		"config":       map[string]any{"Entrypoint": []string{"/pause"}},
		"rootfs":       map[string]any{"type": "layers", "diff_ids": []string{digest(layer)}},
	})
	manifest, _ := json.Marshal(map[string]any{
		"schemaVersion": 2,
		"mediaType":     mediaManifest,
		"config":        describe(mediaConfig, config),
		"layers":        []descriptor{describe(mediaLayer, layer)},
	})
	ref := describe(mediaManifest, manifest)
	ref.Annotations = map[string]string{"io.containerd.image.name": PauseImage, "org.opencontainers.image.ref.name": "v1"}
	index, _ := json.Marshal(map[string]any{"schemaVersion": 2, "manifests": []descriptor{ref}})
	files := []tarFile{{name: "oci-layout", mode: 0o644, data: []byte(`{"imageLayoutVersion":"1.0.0"}`)}, {name: "index.json", mode: 0o644, data: index}}
	for _, blob := range [][]byte{layer, config, manifest} {
		files = append(files, tarFile{name: "blobs/sha256/" + digest(blob)[len("sha256:"):], mode: 0o644, data: blob})
	}
	return tarOf(files)
}

type tarFile struct {
	name string
	mode int64
	data []byte
}

func tarOf(files []tarFile) ([]byte, error) {
	var buf bytes.Buffer
	w := tar.NewWriter(&buf)
	for _, f := range files {
		hdr := &tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)}
		if err := w.WriteHeader(hdr); err != nil {
			return nil, fmt.Errorf("tar %s: %w", f.name, err)
		}
		if _, err := w.Write(f.data); err != nil {
			return nil, fmt.Errorf("tar %s: %w", f.name, err)
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("tar: %w", err)
	}
	return buf.Bytes(), nil
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func describe(mediaType string, b []byte) descriptor {
	return descriptor{MediaType: mediaType, Digest: digest(b), Size: len(b)}
}

// importPauseImage writes the archive and imports it into containerd's
// k8s.io namespace, where the CRI plugin sees it.
func importPauseImage(ctx context.Context, l nodeLayout, pauseBin string) error {
	pause, err := os.ReadFile(pauseBin)
	if err != nil {
		return fmt.Errorf("pause binary: %w", err)
	}
	archive, err := pauseImageArchive(pause)
	if err != nil {
		return err
	}
	if err := os.WriteFile(l.PauseImageTar, archive, 0o644); err != nil {
		return fmt.Errorf("write pause image: %w", err)
	}
	return ctrImport(ctx, l, l.PauseImageTar)
}

// ImportImage imports an image archive (`podman save`'s docker-archive, or
// an OCI archive) into the node's containerd, under the names the archive
// gives; pods run it with imagePullPolicy Never.
func (c *Cluster) ImportImage(ctx context.Context, archive string) error {
	l := layoutOf(c.Dir)
	if _, err := os.Stat(l.ContainerdSock); err != nil {
		return fmt.Errorf("import %s: %s has no node (StartWithNode starts one): %w", archive, c.Dir, err)
	}
	return ctrImport(ctx, l, archive)
}

// ctrImport imports into containerd's k8s.io namespace, where the CRI
// plugin sees it.
func ctrImport(ctx context.Context, l nodeLayout, archive string) error {
	cmd := exec.CommandContext(ctx, "ctr", "--address", l.ContainerdSock, "--namespace", "k8s.io",
		"images", "import", archive)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("import %s into containerd: %w\n%s", archive, err, out)
	}
	return nil
}
