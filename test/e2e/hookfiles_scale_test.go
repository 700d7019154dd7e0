package e2e_test

import (
	"crypto/sha256"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// scaleModules is the fixture's size; every scaleSampleEvery-th module has
// a hook that dumps its input files (the others are chartless and
// hookless: cheap, but enabled, so they are in global.enabledModules).
const (
	scaleModules     = 1000
	scaleSampleEvery = 50
)

// hookFilesGolden holds the SHA-256 of each dump as the build before the
// per-run cost work wrote it (main at 760e9e3; the dumps are ~1 MB, mostly
// the enabled modules' list). HOOK_FILES_GOLDEN_FROM=BINARY writes it anew
// from BINARY's run instead of comparing.
const hookFilesGolden = "testdata/hookfiles-scale.sha256"

// TestHookFilesUnchangedAtScale: with 1,000 modules enabled, a sample of
// the module hooks (beforeHelm and afterHelm, a values patch in between)
// and a global hook get $BINDING_CONTEXT_PATH, $VALUES_PATH and
// $CONFIG_VALUES_PATH byte for byte as the build before wrote them:
// global.enabledModules of a thousand names included.
func TestHookFilesUnchangedAtScale(t *testing.T) {
	root, ns := t.TempDir(), kube.Namespace(t)
	writeFiles(t, root, scaleFixture())
	dump := filepath.Join(root, "dump")
	bin := binary
	if from := os.Getenv("HOOK_FILES_GOLDEN_FROM"); from != "" {
		bin = from
	}
	op := launchBinary(t, bin, nil, root, ns, "DUMP="+dump, "ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8")
	op.waitReady(t)
	got := readTree(t, dump)
	if len(got) != 6*(scaleModules/scaleSampleEvery)+3 {
		t.Fatalf("dumped %d files, want 3 per run of %d sampled modules' two hook runs and the global hook's", len(got), scaleModules/scaleSampleEvery)
	}
	if bin != binary {
		if err := os.WriteFile(hookFilesGolden, []byte(sums(got)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(hookFilesGolden)
	if err != nil {
		t.Fatal(err)
	}
	if sums(got) != string(want) {
		wantLines := strings.Split(string(want), "\n")
		for _, line := range strings.Split(sums(got), "\n") {
			if !slices.Contains(wantLines, line) {
				name := line[strings.Index(line, "  ")+2:]
				t.Errorf("%s differs from the build before's (%s):\n%.400s", name, hookFilesGolden, got[name])
			}
		}
	}
}

// sums is a line "SHA-256  path" per file, sorted by path.
func sums(files map[string][]byte) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		fmt.Fprintf(&b, "%x  %s\n", sha256.Sum256(files[name]), name)
	}
	return b.String()
}

// scaleFixture is scaleModules chartless modules, all enabled, named from
// letters only (their values keys read back), every scaleSampleEvery-th
// with the dumping hook, and a global hook that dumps on beforeAll.
func scaleFixture() map[string]string {
	enabled := []string{"global:", "  domain: example.com", "  list: [a, b]"}
	files := map[string]string{
		"global-hooks/dump": hook(`{"configVersion":"v1","beforeAll":1}`,
			`d="$DUMP/global"; mkdir -p "$d"; cp "$BINDING_CONTEXT_PATH" "$d/context"; cp "$VALUES_PATH" "$d/values"; cp "$CONFIG_VALUES_PATH" "$d/config"`),
	}
	for i := range scaleModules {
		name := "m-" + letters(i)
		key := "m" + strings.ToUpper(letters(i)[:1]) + letters(i)[1:]
		dir := fmt.Sprintf("modules/%03d-%s", i/100, name)
		enabled = append(enabled, key+"Enabled: true", key+":", fmt.Sprintf("  num: %d", i))
		files[dir+"/values.yaml"] = key + ":\n  own: " + name + "\n"
		if i%scaleSampleEvery != 0 {
			continue
		}
		files[dir+"/hooks/dump"] = hook(`{"configVersion":"v1","beforeHelm":1,"afterHelm":1}`,
			`n=0; while [ -e "$DUMP/`+name+`/$n" ]; do n=$((n+1)); done; d="$DUMP/`+name+`/$n"; mkdir -p "$d"
cp "$BINDING_CONTEXT_PATH" "$d/context"; cp "$VALUES_PATH" "$d/values"; cp "$CONFIG_VALUES_PATH" "$d/config"
echo '[{"op":"add","path":"/`+key+`/<patched&>","value":"<&>"}]' > "$VALUES_JSON_PATCH_PATH"`)
	}
	files["modules/values.yaml"] = strings.Join(enabled, "\n") + "\n"
	return files
}

// letters is i written in base 26 with a..z, three letters.
func letters(i int) string {
	return string([]byte{byte('a' + i/676%26), byte('a' + i/26%26), byte('a' + i%26)})
}

// readTree reads every file under dir by its path inside it.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
