package image_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/test/cluster"
	"github.com/addon-actors/addon-operator/test/image"
)

// The image as the original's Deployments and hooks expect it: tini as
// PID 1 in front of /addon-operator start, as the chart's user; bash, GNU
// sed, jq with regex, the tools the shell framework calls, and kubectl at
// the test cluster's version; the shell framework at the paths of both
// upstream images; the modules dirs empty and named in the environment.
func TestImage(t *testing.T) {
	_, img := ensureImage(t, 25*time.Minute)
	how := "built by this run"
	if img.Cached {
		how = "cached, built " + img.BuiltAt.Format(time.RFC3339)
	}
	t.Logf("%s: %s, build took %s (%s)", img.Ref, image.MB(img.Size), img.BuildTime.Round(time.Second), how)

	cfg := config(t, img)
	if want := []string{"/sbin/tini", "--", "/addon-operator"}; !slices.Equal(cfg.Entrypoint, want) {
		t.Errorf("Entrypoint %q, want %q", cfg.Entrypoint, want)
	}
	if !slices.Equal(cfg.Cmd, []string{"start"}) || cfg.User != "65532:65532" || cfg.WorkingDir != "/" {
		t.Errorf("Cmd %q, User %q, WorkingDir %q; want [start], 65532:65532, /", cfg.Cmd, cfg.User, cfg.WorkingDir)
	}
	for _, env := range []string{"MODULES_DIR=/modules", "GLOBAL_HOOKS_DIR=/global-hooks"} {
		if !slices.Contains(cfg.Env, env) {
			t.Errorf("Env %q lacks %s", cfg.Env, env)
		}
	}

	// The image's own entrypoint and user, with a read-only root as the chart runs it.
	if out := run(t, img, "--read-only", img.Ref, "version"); strings.TrimSpace(out) == "" {
		t.Error("`/addon-operator version` printed nothing")
	}
	// PID 1 is the image's tini, which runs its command as the image's user.
	tini, _ := json.Marshal(cfg.Entrypoint[:len(cfg.Entrypoint)-1])
	pid1 := run(t, img, "--entrypoint", string(tini), img.Ref, "/bin/sh", "-c", "cat /proc/1/comm; readlink /proc/1/exe; id -u; id -g")
	if want := "tini\n/usr/bin/tini\n65532\n65532\n"; pid1 != want {
		t.Errorf("PID 1 and user: %q, want %q", pid1, want)
	}
	kubectl := run(t, img, "--entrypoint", "kubectl", img.Ref, "version", "--client")
	if want := "Client Version: " + cluster.KubernetesVersion + "\n"; !strings.Contains(kubectl, want) {
		t.Errorf("kubectl version --client: %q, want %q", kubectl, want)
	}
	// helm as the original's image has it (/bin/helm), at the version the
	// operator links.
	helm := run(t, img, "--entrypoint", "/bin/helm", img.Ref, "version", "--short")
	if want := helmVersion(t); !strings.HasPrefix(helm, want) {
		t.Errorf("helm version --short: %q, want %s", helm, want)
	}
	facts := parseFacts(run(t, img, "--entrypoint", "bash", img.Ref, "-c", inspectScript))
	for key, want := range wantFacts {
		if facts[key] != want {
			t.Errorf("%s: %q, want %q", key, facts[key], want)
		}
	}
}

// inspectScript prints key=value facts about the running image, checked
// against wantFacts.
const inspectScript = `
bash_ok() { (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )) && echo yes || echo no; }
echo "bash 4.4+=$(bash_ok)"
echo "sed=$(sed --version | head -n1 | cut -d' ' -f1-3)"
echo "sed -E labels=$(echo a.b.c | sed -E ':x; s/\./\//; tx')"
echo "jq regex=$(jq -rn '"stable.example.com/v1" | sub("/"; ".")')"
for c in find seq cut rev kubectl tini; do command -v "$c" >/dev/null && found="$found $c"; done
echo "tools=${found# }"
echo "ca=$(test -s /etc/ssl/certs/ca-certificates.crt && echo yes)"
echo "/shell_lib.sh=$(test -f /shell_lib.sh && bash -n /shell_lib.sh && echo ok)"
for d in frameworks framework; do
  ok=yes
  for f in hook.sh context.sh; do test -f "/$d/shell/$f" || ok="no $f"; done
  for f in /$d/shell/*.sh; do bash -n "$f" 2>/dev/null || ok="bad syntax: $f"; done
  echo "/$d/shell=$ok"
done
echo "/framework=$(readlink /framework)"
ctx=$(mktemp)
echo '[{"binding":"every-minute","type":"Schedule"}]' > "$ctx"
echo "hook::run=$(BINDING_CONTEXT_PATH=$ctx bash -c 'source /shell_lib.sh; __on_schedule::every-minute() { context::get binding; }; hook::run')"
echo "/modules=$(ls -A /modules | wc -l) entries, /global-hooks=$(ls -A /global-hooks | wc -l) entries"
echo "env=$MODULES_DIR $GLOBAL_HOOKS_DIR"
echo "uid=$(id -u)"
echo "socket dir=$(test -w /var/run/addon-operator && echo writable)"
`

var wantFacts = map[string]string{
	"bash 4.4+":         "yes",
	"sed":               "sed (GNU sed)",
	"sed -E labels":     "a/b/c",
	"jq regex":          "stable.example.com.v1",
	"tools":             "find seq cut rev kubectl tini",
	"ca":                "yes",
	"/shell_lib.sh":     "ok",
	"/frameworks/shell": "yes",
	"/framework/shell":  "yes",
	"/framework":        "frameworks",
	"hook::run":         "every-minute",
	"/modules":          "0 entries, /global-hooks=0 entries",
	"env":               "/modules /global-hooks",
	"uid":               "65532",
	"socket dir":        "writable",
}

func parseFacts(out string) map[string]string {
	facts := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			facts[k] = v
		}
	}
	return facts
}

// run runs a container of img with no network and returns its stdout.
func run(t *testing.T, img image.Built, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := img.Podman.Output(ctx, append([]string{"run", "--rm", "--network", "none"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func config(t *testing.T, img image.Built) image.Config {
	t.Helper()
	out, err := img.Podman.Output(context.Background(), "image", "inspect", "--format", "{{json .Config}}", img.Ref)
	if err != nil {
		t.Fatal(err)
	}
	var cfg image.Config
	if err := json.Unmarshal([]byte(out), &cfg); err != nil {
		t.Fatalf("image config %s: %v", out, err)
	}
	return cfg
}

// helmVersion is the helm module's version in go.mod, which the image's
// helm reports.
func helmVersion(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "helm.sh/helm/v3").Output()
	if err != nil {
		t.Fatalf("go list -m helm.sh/helm/v3: %v", err)
	}
	return strings.TrimSpace(string(out))
}
