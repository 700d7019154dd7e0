package shell_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The dispatch table: for each kind of binding context, the handler names
// hook::run tries, most specific first, __main__ last.
var dispatch = []struct {
	name    string
	context string
	want    []string
}{
	{"onStartup", `{"binding":"onStartup"}`, []string{"__on_startup"}},
	{"onStartup by name before type", `{"binding":"onStartup","type":"Schedule"}`, []string{"__on_startup"}},
	{"Synchronization", `{"binding":"pods","type":"Synchronization","objects":[]}`,
		[]string{"__on_kubernetes::pods::synchronization", "__on_kubernetes::pods"}},
	{"Event Added", `{"binding":"pods","type":"Event","watchEvent":"Added"}`,
		[]string{"__on_kubernetes::pods::added", "__on_kubernetes::pods::added_or_modified", "__on_kubernetes::pods"}},
	{"Event Modified", `{"binding":"pods","type":"Event","watchEvent":"Modified"}`,
		[]string{"__on_kubernetes::pods::modified", "__on_kubernetes::pods::added_or_modified", "__on_kubernetes::pods"}},
	{"Event Deleted", `{"binding":"pods","type":"Event","watchEvent":"Deleted"}`,
		[]string{"__on_kubernetes::pods::deleted", "__on_kubernetes::pods"}},
	{"Event of another watchEvent", `{"binding":"pods","type":"Event","watchEvent":"Bookmark"}`, nil},
	{"Event without watchEvent", `{"binding":"pods","type":"Event"}`, nil},
	{"Group by groupName, not binding", `{"binding":"pods","type":"Group","groupName":"main-group","snapshots":{}}`,
		[]string{"__on_group::main-group"}},
	{"Schedule", `{"binding":"every-minute","type":"Schedule"}`, []string{"__on_schedule::every-minute"}},
	{"Validating", `{"binding":"check.example.com","type":"Validating","review":{}}`,
		[]string{"__on_validating::check.example.com"}},
	{"Mutating", `{"binding":"fill","type":"Mutating","review":{}}`, []string{"__on_mutating::fill"}},
	{"Conversion, first slash made a dot", `{"binding":"crontabs","type":"Conversion","fromVersion":"stable.example.com/v1alpha1","toVersion":"stable.example.com/v1/x"}`,
		[]string{"__on_conversion::crontabs::stable.example.com.v1alpha1::stable.example.com.v1/x", "__on_conversion::crontabs"}},
	{"Conversion without a slash", `{"binding":"crontabs","type":"Conversion","fromVersion":"v1","toVersion":"v2"}`,
		[]string{"__on_conversion::crontabs::v1::v2", "__on_conversion::crontabs"}},
	{"beforeAll", `{"binding":"beforeAll","snapshots":{}}`, nil},
	{"afterAll", `{"binding":"afterAll","snapshots":{}}`, nil},
	{"beforeHelm", `{"binding":"beforeHelm"}`, nil},
	{"afterHelm", `{"binding":"afterHelm"}`, nil},
	{"afterDeleteHelm", `{"binding":"afterDeleteHelm"}`, nil},
	{"unknown type", `{"binding":"x","type":"Whatever"}`, nil},
}

// handlers defines each name as a function printing its name.
func handlers(names []string) string {
	var b strings.Builder
	for _, name := range names {
		b.WriteString(name + "() { echo " + name + "; }\n")
	}
	return b.String()
}

// Each row with the handlers from the k-th candidate on defined runs the
// k-th candidate, and only it; with none defined the hook fails naming
// exactly the candidates.
func TestDispatchTable(t *testing.T) {
	for _, row := range dispatch {
		t.Run(row.name, func(t *testing.T) {
			candidates := append(row.want[:len(row.want):len(row.want)], "__main__")
			contexts := "[" + row.context + "]"
			for k := range candidates {
				res := hookRun(t, contexts, handlers(candidates[k:])+"hook::run \"$@\"")
				res.expect(t, 0, candidates[k]+"\n")
			}
			res := hookRun(t, contexts, "hook::run \"$@\"")
			res.expect(t, 1, "")
			binding := strings.Split(strings.Split(row.context, `"binding":"`)[1], `"`)[0]
			want := "ERROR: Can't find any handler from the list: " + strings.Join(candidates, ", ") +
				" (binding context 0, binding " + binding + ")"
			if got := lastLine(res.stderr); got != want {
				t.Fatalf("stderr ends\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// A handler may be any command that `type` finds, a program on PATH too.
func TestHandlerOnPath(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "__main__"), []byte("#!/usr/bin/env bash\necho \"program $#\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res := run{text: script(filepath.Join(libDir(t), "shell_lib.sh"), `hook::run "$@"`), contexts: `[{"binding":"beforeHelm"}]`,
		env: []string{"PATH=" + bin + ":" + os.Getenv("PATH")}}.exec(t)
	res.expect(t, 0, "program 0\n")
}

// Every context runs its handler in order, in a subshell with no
// arguments, with the index and binding exported; HANDLERS and
// CONTEXT_LENGTH are set; what a handler sets does not reach the next;
// the hook's strict mode and ERR trap are as before once hook::run ends.
func TestHookRunEnvironment(t *testing.T) {
	body := `__main__() {
  echo "$BINDING_CONTEXT_CURRENT_INDEX|$BINDING_CONTEXT_CURRENT_BINDING|$#|$HANDLERS|$CONTEXT_LENGTH|$(bash -c 'echo "$BINDING_CONTEXT_CURRENT_INDEX/$BINDING_CONTEXT_CURRENT_BINDING"')|${LEAK:-unset}"
  LEAK=set
}
__on_schedule::tick() { __main__; }
hook::run "$@"
echo "after: $(trap -p ERR) ${-//[^eu]/} ${LEAK:-unset}"`
	res := hookRun(t, `[{"binding":"beforeHelm"},{"binding":"tick","type":"Schedule"},{"snapshots":{}},{"binding":null}]`, body, "one", "two")
	res.expect(t, 0, `0|beforeHelm|0|__main__|4|0/beforeHelm|unset
1|tick|0|__on_schedule::tick __main__|4|1/tick|unset
2|unknown|0|__main__|4|2/unknown|unset
3|unknown|0|__main__|4|3/unknown|unset
after: trap -- 'backtrace' ERR eu unset
`)
}

// An empty array runs nothing and succeeds; a binding context that is not
// an array fails the hook.
func TestHookRunEmptyAndInvalid(t *testing.T) {
	hookRun(t, `[]`, `__main__() { echo main; }; hook::run "$@"; echo done`).expect(t, 0, "done\n")
	res := hookRun(t, `{"binding":"beforeHelm"}`, `__main__() { echo main; }; hook::run "$@"; echo done`)
	if res.code == 0 || res.stdout != "" || !strings.Contains(res.stderr, "the binding context is not a JSON array") {
		t.Fatalf("an object as binding context: status %d, stdout %q, stderr\n%s", res.code, res.stdout, res.stderr)
	}
	res = hookRun(t, "", `__main__() { echo main; }; hook::run "$@"`)
	if res.code == 0 || !strings.Contains(res.stderr, "hook::run: BINDING_CONTEXT_PATH is not set") {
		t.Fatalf("no BINDING_CONTEXT_PATH: status %d, stderr\n%s", res.code, res.stderr)
	}
}

// --config (as the first argument only) runs __config__ in the hook's
// shell and exits 0 without reading a binding context.
func TestHookRunConfig(t *testing.T) {
	body := `__config__() { echo "configVersion: v1"; echo "onStartup: 1"; }
__main__() { echo main; }
hook::run "$@"
echo after`
	hookRun(t, "", body, "--config").expect(t, 0, "configVersion: v1\nonStartup: 1\n")
	hookRun(t, `[{"binding":"beforeHelm"}]`, body, "x", "--config").expect(t, 0, "main\nafter\n")

	res := hookRun(t, "", `__main__() { echo main; }; hook::run "$@"`, "--config")
	if res.code != 127 || !strings.Contains(res.stderr, "__config__: command not found") {
		t.Fatalf("no __config__: status %d, stderr\n%s", res.code, res.stderr)
	}
	hookRun(t, "", `__config__() { echo '{}'; false; echo more; }; hook::run "$@"`, "--config").expect(t, 1, "{}\n")
}

// A failing handler stops the hook with its status; the contexts after it
// do not run. A failing command prints one traceback (the handler's), a
// plain non-zero exit none; both end with one line naming the handler.
func TestFailingHandlerStopsTheHook(t *testing.T) {
	contexts := `[{"binding":"a","type":"Schedule"},{"binding":"b","type":"Schedule"},{"binding":"c","type":"Schedule"}]`
	for _, tc := range []struct {
		name, handler string
		code          int
		tracebacks    int
	}{
		{"exit status", `echo b; exit 3`, 3, 0},
		{"failing command under errexit", `echo b; false; echo never`, 1, 1},
		// bash runs no ERR trap for an unset variable: its message is the trace.
		{"unset variable under nounset", `echo b; echo "$NOT_SET"; echo never`, 1, 0},
		{"failing pipeline under pipefail", `echo b; false | cat; echo never`, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := "__on_schedule::a() { echo a; }\n__on_schedule::b() { " + tc.handler + "; }\n__on_schedule::c() { echo c; }\nhook::run \"$@\"\necho after"
			res := hookRun(t, contexts, body)
			res.expect(t, tc.code, "a\nb\n")
			if n := strings.Count(res.stderr, "Traceback (most recent call last):"); n != tc.tracebacks {
				t.Fatalf("%d tracebacks, want %d:\n%s", n, tc.tracebacks, res.stderr)
			}
			want := "ERROR: handler __on_schedule::b failed with exit status " + []string{"0", "1", "2", "3"}[tc.code] + " (binding context 1, binding b)"
			if got := lastLine(res.stderr); got != want {
				t.Fatalf("stderr ends\n%s\nwant\n%s", got, want)
			}
		})
	}
	// A handler that exits 0 early is a success.
	hookRun(t, contexts, `__main__() { echo "$BINDING_CONTEXT_CURRENT_BINDING"; exit 0; echo never; }; hook::run "$@"`).expect(t, 0, "a\nb\nc\n")
}
