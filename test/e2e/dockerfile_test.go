package e2e_test

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// deploy/Dockerfile's parts, checked without a container runtime (package
// test/image builds the image with podman and checks what is in it): the
// build stage's go build command, run as written, makes a static binary
// that runs as the image's non-root user; the runtime stage installs the
// hooks' tools, puts the shell framework and kubectl where the original's
// image has them, runs as that user and starts the binary it copied under
// tini.
func TestDockerfile(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(deployDir(), "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	build := regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .*) -o (\S+) (\S+)$`).FindStringSubmatch(text)
	if build == nil {
		t.Fatal("no `RUN CGO_ENABLED=0 go build ... -o OUT PKG` line in the build stage")
	}
	dir, err := os.MkdirTemp("", "dockerfile-") // not under t.TempDir(), which only root may enter
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "addon-operator")
	cmd := exec.Command("sh", "-c", build[1]+" -o "+out+" "+build[3])
	cmd.Dir = filepath.Join(deployDir(), "..")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build[1], err, msg)
	}
	if interp := elfInterpreter(t, out); interp != "" {
		t.Fatalf("the binary is dynamically linked (interpreter %s)", interp)
	}
	user := regexp.MustCompile(`(?m)^USER (\d+):(\d+)$`).FindStringSubmatch(text)
	if user == nil || user[1] == "0" {
		t.Fatalf("the runtime stage does not run as a non-root user: %v", user)
	}
	for _, want := range []string{"bash", "jq", "sed", "tini", "ln -s /usr/bin/tini /sbin/tini",
		"COPY --from=build " + build[2] + " /addon-operator", `ENTRYPOINT ["/sbin/tini", "--", "/addon-operator"]`, `CMD ["start"]`,
		"COPY deploy/shell/shell_lib.sh /shell_lib.sh", "COPY deploy/shell/frameworks/shell/ /frameworks/shell/",
		"ln -s frameworks /framework", "ENV MODULES_DIR=/modules GLOBAL_HOOKS_DIR=/global-hooks",
		"COPY test/cluster/servers/go.mod test/cluster/servers/go.sum", "k8s.io/kubernetes/cmd/kubectl",
		"helm.sh/helm/v3/cmd/helm@", "COPY --from=helm /out/helm /usr/bin/helm"} {
		if !strings.Contains(text, want) {
			t.Fatalf("the Dockerfile lacks %q", want)
		}
	}
	version := exec.Command(out, "version")
	version.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uidOf(t, user[1]), Gid: uidOf(t, user[2])}}
	if msg, err := version.CombinedOutput(); err != nil || len(strings.TrimSpace(string(msg))) == 0 {
		t.Fatalf("the binary as user %s: %v %q", user[1], err, msg)
	}
}

func elfInterpreter(t *testing.T, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b := make([]byte, p.Filesz)
			_, _ = p.ReadAt(b, 0)
			return strings.TrimRight(string(b), "\x00")
		}
	}
	return ""
}

func uidOf(t *testing.T, s string) uint32 {
	t.Helper()
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(n)
}
