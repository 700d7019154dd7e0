package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// whyChain is `addon-operator module why NAME -o json`, as much as the
// tests read of it.
type whyChain struct {
	Module  string `json:"module"`
	Summary string `json:"summary"`
	State   struct {
		Enabled  bool `json:"enabled"`
		Revision int  `json:"revision"`
		Run      *struct {
			Kind   string `json:"kind"`
			Err    string `json:"err"`
			Ended  time.Time
			Phases []struct {
				Phase string    `json:"phase"`
				Start time.Time `json:"start"`
				End   time.Time `json:"end"`
			} `json:"phases"`
		} `json:"run"`
		Helm *struct {
			Action   string `json:"action"`
			Reason   string `json:"reason"`
			Revision int    `json:"revision"`
		} `json:"helm"`
	} `json:"state"`
	Enabled *struct {
		Enabled bool   `json:"enabled"`
		Script  string `json:"script"`
		Reason  string `json:"reason"`
		Layers  []struct {
			Layer string `json:"layer"`
			Key   string `json:"key"`
			Value *bool  `json:"value"`
		} `json:"layers"`
	} `json:"enabled"`
	Retry *struct {
		Kind      string        `json:"kind"`
		Attempts  int           `json:"attempts"`
		LastError string        `json:"lastError"`
		In        time.Duration `json:"in"`
	} `json:"retry"`
}

func (op *operator) why(t *testing.T, module string) whyChain {
	t.Helper()
	var w whyChain
	if err := json.Unmarshal([]byte(op.cli(t, "module", "why", module, "-o", "json")), &w); err != nil {
		t.Fatalf("module why %s: %v", module, err)
	}
	return w
}

// phases lists a run's phases in order.
func (w whyChain) phases() []string {
	var out []string
	if w.State.Run != nil {
		for _, p := range w.State.Run.Phases {
			out = append(out, p.Phase)
		}
	}
	return out
}

const steadyChart = "apiVersion: v2\nname: steady\nversion: 0.1.0\n"

// On a restart with nothing changed, `module why` says helm was skipped
// because the checksum is equal, after the run's phases; a module whose
// enabled script says false shows each layer and the script's answer.
func TestModuleWhySkippedAndDisabledByScript(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml":                   "steadyEnabled: true\nscriptedEnabled: true\n",
		"modules/001-steady/Chart.yaml":         steadyChart,
		"modules/001-steady/templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: steady-cm\ndata:\n  a: b\n",
		"modules/001-steady/hooks/before":       hook(`{"configVersion":"v1","beforeHelm":1}`, "true"),
		"modules/002-scripted/Chart.yaml":       "apiVersion: v2\nname: scripted\nversion: 0.1.0\n",
		"modules/002-scripted/templates/x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scripted-cm\n",
		"modules/002-scripted/enabled":          "#!/usr/bin/env bash\necho false > $MODULE_ENABLED_RESULT\n",
	})
	first := startSpec(t, root, ns)
	first.waitReady(t)
	first.waitIdle(t)
	if w := first.why(t, "steady"); w.State.Helm == nil || w.State.Helm.Action != "installed" || w.Summary != "helm installed: not installed" {
		t.Fatalf("first start: %+v", w)
	}
	first.stop(t)

	op := startSpec(t, root, ns)
	op.waitReady(t)
	op.waitIdle(t)
	w := op.why(t, "steady")
	if w.Summary != "helm skipped: checksum equal, no object absent" || w.State.Helm.Revision != 1 || !w.State.Enabled {
		t.Fatalf("steady after a restart: %+v", w)
	}
	if got := strings.Join(w.phases(), ","); got != "Startup,KubeSync,BeforeHelm,Helm,AfterHelm" || w.State.Run.Err != "" {
		t.Fatalf("steady's last run phases %s: %+v", got, w.State.Run)
	}
	if e := w.Enabled; e == nil || !e.Enabled || e.Script != "none" ||
		e.Reason != "enabled by modules values.yaml key steadyEnabled; no enabled script" {
		t.Fatalf("steady's enabled decision: %+v", w.Enabled)
	}

	s := op.why(t, "scripted")
	if s.Summary != "disabled by enabled script" || s.Enabled == nil || s.Enabled.Script != "false" || s.Enabled.Enabled ||
		len(s.Enabled.Layers) != 4 || s.Enabled.Layers[0].Value == nil || !*s.Enabled.Layers[0].Value ||
		s.Enabled.Layers[2].Value != nil || s.State.Run != nil {
		t.Fatalf("scripted: %+v", s)
	}
	text := op.cli(t, "module", "why", "scripted")
	for _, want := range []string{"WHY", "disabled by enabled script", "modules values.yaml", "scriptedEnabled", "said false"} {
		if !strings.Contains(text, want) {
			t.Fatalf("module why scripted lacks %q:\n%s", want, text)
		}
	}
	wide := op.cli(t, "module", "list", "-o", "wide")
	if !strings.Contains(wide, "WHY") || !lineWith(wide, "steady", "helm skipped: checksum equal") ||
		!lineWith(wide, "scripted", "disabled by enabled script") {
		t.Fatalf("module list -o wide:\n%s", wide)
	}
}

// A module whose hook fails stays at the head of the queue: `module why`
// shows the failed run ending in beforeHelm, and the retry with its error
// and the time left.
func TestModuleWhyRetrying(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, map[string]string{
		"modules/values.yaml":             "brokenEnabled: true\n",
		"modules/001-broken/hooks/before": hook(`{"configVersion":"v1","beforeHelm":1}`, "echo broken >&2; exit 1"),
	})
	op := startSpec(t, root, ns, "RETRY_INITIAL_DELAY=60s", "RETRY_MAX_DELAY=60s")
	op.waitRecord(t, "task failed; retrying", map[string]any{"attempt": 1.0})
	w := op.why(t, "broken")
	const failure = "exited with code 1; last stderr lines: broken"
	if !strings.HasPrefix(w.Summary, "retrying in ") || !strings.Contains(w.Summary, ": hook hooks/before: ") ||
		!strings.HasSuffix(w.Summary, failure) {
		t.Fatalf("summary %q", w.Summary)
	}
	if r := w.Retry; r == nil || r.Kind != "ModuleRun" || r.Attempts != 1 || r.In <= 0 || r.In > 60*time.Second {
		t.Fatalf("retry: %+v", w.Retry)
	}
	if got := strings.Join(w.phases(), ","); got != "Startup,KubeSync,BeforeHelm" || !strings.HasSuffix(strings.ReplaceAll(w.State.Run.Err, "\n", " "), failure) {
		t.Fatalf("failed run phases %s: %+v", got, w.State.Run)
	}
	text := op.cli(t, "module", "why", "broken")
	if !strings.Contains(text, "RETRY") || !strings.Contains(text, "ModuleRun in queue main, 1 attempts") ||
		!strings.Contains(text, "enabled, no run completed since") {
		t.Fatalf("module why broken:\n%s", text)
	}
	out, err := runCLI(op.socket, "module", "why", "nope")
	if code := exitCode(err); code != 1 || !strings.Contains(out, `no module "nope"`) {
		t.Fatalf("module why of an unknown module: exit %d\n%s", code, out)
	}
}

// lineWith tells whether one line of out holds every part.
func lineWith(out string, parts ...string) bool {
	for _, line := range strings.Split(out, "\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return true
		}
	}
	return false
}
