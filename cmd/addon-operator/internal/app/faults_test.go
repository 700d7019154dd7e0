package app_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/test/scenario"
)

func waitFatal(t *testing.T, s *started) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	err := s.app.Wait(ctx)
	if err == nil {
		t.Fatal("start-up did not fail")
	}
	if s.app.Board.Ready() {
		t.Fatal("operator became ready despite the failure")
	}
	return err
}

// spec/VALUES.md: invalid global config values stop start-up with an error
// that names what is wrong.
func TestInvalidConfigAtStartupIsFatal(t *testing.T) {
	root := tree(t, map[string]string{
		"global-hooks/openapi/config-values.yaml": "type: object\nadditionalProperties: false\nrequired:\n  - project\n  - clusterName\n" +
			"minProperties: 2\nproperties:\n  project:\n    type: string\n  clusterName:\n    type: string\n" +
			"  clusterHostname:\n    type: string\n  discovery:\n    type: object\n",
	})
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "project: myProject\n", "moduleOne": "param1: value1\n"})
	err := waitFatal(t, startAppIn(t, root, ns))
	if !strings.Contains(err.Error(), "config-values.yaml") || !strings.Contains(err.Error(), "/global") {
		t.Fatalf("error does not name the schema and the values: %v", err)
	}
}

func TestUnparsableConfigMapAtStartupIsFatal(t *testing.T) {
	ns := kube.Namespace(t)
	scenario.PutConfigMap(t, kube, ns, map[string]string{"global": "a: [1\n"})
	err := waitFatal(t, startAppIn(t, tree(t, map[string]string{}), ns))
	if !strings.Contains(err.Error(), "global") {
		t.Fatalf("error does not name the key: %v", err)
	}
}

func TestGlobalHookThatCannotConfigureIsFatal(t *testing.T) {
	root := tree(t, map[string]string{"global-hooks/broken": hook(`{"configVersion":"v1","onStartup":"soon"}`, "")})
	err := waitFatal(t, startApp(t, root))
	if !strings.Contains(err.Error(), "broken") {
		t.Fatalf("error does not name the hook: %v", err)
	}
}

// A module whose hook cannot be configured is left out; the others run.
func TestModuleThatCannotConfigureIsLeftOut(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml":      "badEnabled: true\ngoodEnabled: true\n",
		"modules/001-bad/hooks/h":  hook(`{"configVersion":"v1","beforeHelm":"x"}`, ""),
		"modules/002-good/hooks/h": hook(`{"configVersion":"v1","beforeHelm":1}`, `record good order`),
	})
	s := startApp(t, root)
	s.waitReady(t)
	if got := s.app.Board.EnabledModules(); !reflect.DeepEqual(got, []string{"good"}) {
		t.Fatalf("enabled %v", got)
	}
	if st := s.app.Board.Modules()["bad"]; st.Phase != "failed" || !strings.Contains(st.LastError, "hooks/h") && !strings.Contains(st.LastError, "h") {
		t.Fatalf("bad module state %+v", st)
	}
}

// An enabled script that crashes is a discovery error: discovery is
// retried after the delay until it succeeds.
func TestCrashingEnabledScriptRetriesDiscovery(t *testing.T) {
	root := tree(t, map[string]string{
		"modules/values.yaml": "flakyEnabled: true\n",
		"modules/001-flaky/enabled": "#!/usr/bin/env bash\n" + recordLib +
			"if [[ ! -e $RECORD_DIR/crashed ]]; then record x crashed; exit 3; fi\necho true > $MODULE_ENABLED_RESULT\n",
	})
	s := startApp(t, root)
	s.waitReady(t)
	s.waitFor(t, "flaky enabled", func(b *board.Board) bool { return reflect.DeepEqual(b.EnabledModules(), []string{"flaky"}) })
}

// A global hook bound to a kind the apiserver does not serve stops start-up
// with an error naming the hook.
func TestGlobalHookWithUnknownKindIsFatal(t *testing.T) {
	config := `{"configVersion":"v1","kubernetes":[{"name":"x","apiVersion":"example.com/v1","kind":"NoSuchThing"}]}`
	err := waitFatal(t, startApp(t, tree(t, map[string]string{"global-hooks/watcher": hook(config, "")})))
	if !strings.Contains(err.Error(), "watcher") || !strings.Contains(err.Error(), "NoSuchThing") {
		t.Fatalf("error does not name the hook and kind: %v", err)
	}
}
