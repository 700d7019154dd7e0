package image

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/addon-actors/addon-operator/test/cluster"
)

// Podman runs podman with this package's containers.conf.
type Podman struct {
	// Conf is the containers.conf file given as CONTAINERS_CONF.
	Conf string
}

// newPodman writes the containers.conf into dir: runc, since crun refuses
// hybrid cgroups, and ulimits no higher than this process's hard limits,
// since podman's defaults are higher and raising a hard limit needs
// CAP_SYS_RESOURCE.
func newPodman(dir string) (Podman, error) {
	for _, tool := range []string{"podman", "runc"} {
		if _, err := exec.LookPath(tool); err != nil {
			return Podman{}, fmt.Errorf("%s not found (apt-get install podman runc mmdebstrap; .ci/run does): %w", tool, err)
		}
	}
	conf := fmt.Sprintf("[containers]\ndefault_ulimits = [\"nofile=%[1]d:%[1]d\", \"nproc=%[2]d:%[2]d\"]\n\n[engine]\nruntime = \"runc\"\n",
		hardLimit(unix.RLIMIT_NOFILE, 1048576), hardLimit(unix.RLIMIT_NPROC, 32768))
	path := filepath.Join(dir, "containers.conf")
	if err := writeFileAtomic(path, []byte(conf)); err != nil {
		return Podman{}, err
	}
	return Podman{Conf: path}, nil
}

func hardLimit(resource int, want uint64) uint64 {
	var lim unix.Rlimit
	if err := unix.Getrlimit(resource, &lim); err == nil && lim.Max < want {
		return lim.Max
	}
	return want
}

// Command is podman with args and CONTAINERS_CONF set.
func (p Podman) Command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "podman", args...)
	cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+p.Conf)
	return cmd
}

// Output runs podman with args and returns its stdout; an error carries
// stderr.
func (p Podman) Output(ctx context.Context, args ...string) (string, error) {
	cmd := p.Command(ctx, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("podman %s: %w\n%s", strings.Join(args, " "), err, cluster.Tail(stderr.String(), 20))
	}
	return stdout.String(), nil
}

// Config is the part of an image's configuration the tests check.
type Config struct {
	Entrypoint []string
	Cmd        []string
	User       string
	Env        []string
	WorkingDir string
	Labels     map[string]string
}

// imageInfo is what `podman image inspect` says of one image.
type imageInfo struct {
	ID     string `json:"Id"`
	Size   int64
	Config Config
}

// inspect returns what podman knows of ref, or ok=false when it has no
// image of that name.
func (p Podman) inspect(ctx context.Context, ref string) (info imageInfo, ok bool, err error) {
	if err := p.Command(ctx, "image", "exists", ref).Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 1 {
			return imageInfo{}, false, nil
		}
		return imageInfo{}, false, fmt.Errorf("podman image exists %s: %w", ref, err)
	}
	out, err := p.Output(ctx, "image", "inspect", ref)
	if err != nil {
		return imageInfo{}, false, err
	}
	var infos []imageInfo
	if err := json.Unmarshal([]byte(out), &infos); err != nil || len(infos) != 1 {
		return imageInfo{}, false, fmt.Errorf("podman image inspect %s: %d images, %v", ref, len(infos), err)
	}
	return infos[0], true, nil
}
