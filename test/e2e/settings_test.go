package e2e_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DEBUG_KEEP_TMP_FILES keeps every hook run's files in the tmp dir; a
// setting of the original that this operator does not read is named in a
// WARN at start-up, with what is done instead (UPSTREAM.md §9).
func TestDebugKeepTmpFilesAndUnsupportedSettings(t *testing.T) {
	root, ns, tmp := t.TempDir(), kube.Namespace(t), t.TempDir()
	writeFiles(t, root, map[string]string{
		"global-hooks/start.sh": hook(`{"configVersion":"v1","onStartup":1,"beforeAll":1}`, `echo ran`),
	})
	op := startOperator(t, root, ns, "DEBUG_KEEP_TMP_FILES=true", "ADDON_OPERATOR_TMP_DIR="+tmp,
		"ADDON_OPERATOR_SHELL_CHROOT_DIR=/chroot")
	op.waitReady(t)
	rec := op.waitRecord(t, "", map[string]any{"level": "WARN", "setting": "ADDON_OPERATOR_SHELL_CHROOT_DIR", "value": "/chroot"})
	if why, _ := rec["instead"].(string); !strings.Contains(why, "chroot") {
		t.Errorf("the warning does not say what is done instead: %v", rec)
	}
	// Each run keeps its own files: both runs' binding contexts are there
	// (without the setting a run's directory is reused by the next).
	kept := map[string]bool{}
	err := filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		for _, b := range []string{"onStartup", "beforeAll"} {
			kept[b] = kept[b] || strings.Contains(string(data), `"binding":"`+b+`"`)
		}
		return err
	})
	if err != nil || !kept["onStartup"] || !kept["beforeAll"] {
		t.Fatalf("binding contexts kept under %s: %v (err %v)", tmp, kept, err)
	}
}

// UPSTREAM.md §5: ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER gives a module
// dir without a numeric prefix that order, as the original's weight; unset,
// such a module runs after the numbered ones (DESIGN §4).
func TestUnnumberedModulesOrder(t *testing.T) {
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{nil, "alpha\nbeta\n"},
		{[]string{"ADDON_OPERATOR_UNNUMBERED_MODULES_ORDER=0"}, "beta\nalpha\n"},
	} {
		before := hook(`{"configVersion":"v1","beforeHelm":1}`, `record "$(basename $(dirname $(dirname $0)))" order`)
		root := tree(t, map[string]string{
			"modules/values.yaml":            "alphaEnabled: true\nbetaEnabled: true\n",
			"modules/001-alpha/hooks/before": before,
			"modules/beta/hooks/before":      before,
		})
		op := startSpec(t, root, kube.Namespace(t), tc.env...)
		op.waitReady(t)
		if got := strings.ReplaceAll(record(t, root, "order"), "001-", ""); got != tc.want {
			t.Errorf("with %v: modules ran in order %q, want %q", tc.env, got, tc.want)
		}
	}
}
