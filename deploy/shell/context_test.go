package shell_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The user path -> jq path rules.
func TestUserPathToJqPath(t *testing.T) {
	cases := [][2]string{
		{"", "."},
		{"a", ".a"},
		{"a.b.c", ".a.b.c"},
		{`a."b.c".d`, `.a."b.c".d`},
		{`a.'b.c'.d`, `.a."b.c".d`},
		{"a.my-key", `.a."my-key"`},
		{`a."my-key"`, `.a."my-key"`},
		{"a.0.b", ".a[0].b"},
		{"0", ".[0]"},
		{"0.1", ".[0][1]"},
		{"a.10", ".a[10]"},
		{"objects[0].filterResult", ".objects[0].filterResult"},
		{"objects | length", ".objects | length"},
		{".a.b", ".a.b"},
		{"a..b.", ".a.b"},
		{`x."app.kubernetes.io/name"`, `.x."app.kubernetes.io/name"`},
	}
	var body strings.Builder
	for _, c := range cases {
		body.WriteString("context::_convert_user_path_to_jq_path " + quote(c[0]) + "\n")
	}
	res := hookRun(t, "", body.String())
	got := strings.Split(strings.TrimSuffix(res.stdout, "\n"), "\n")
	if res.code != 0 || len(got) != len(cases) {
		t.Fatalf("status %d, stdout\n%s\nstderr\n%s", res.code, res.stdout, res.stderr)
	}
	for i, c := range cases {
		if got[i] != c[1] {
			t.Errorf("%q -> %q, want %q", c[0], got[i], c[1])
		}
	}
}

// contextFile is a binding context of two; the handlers read the second.
const contextFile = `[{"binding":"first","type":"Synchronization"},
{"binding":"pods","type":"Event","watchEvent":"Added","object":{"metadata":{"name":"web-1",
 "labels":{"app.kubernetes.io/name":"web","my-key":"dash","plain":"p","0":"zero-key"}},
 "spec":{"enabled":true,"off":false,"nothing":null,"text":"hello","list":[{"x":1},{"x":2}],"obj":{"k":"v"}}}}]`

// inHandler runs body as the handler of the second context.
func inHandler(t *testing.T, body string) result {
	t.Helper()
	return hookRun(t, contextFile, "__on_kubernetes::first() { :; }\n__on_kubernetes::pods::added() {\n"+body+"\n}\nhook::run")
}

// quote is s as one single-quoted bash word.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Each function on each path: what get prints and the statuses of has,
// is_true, is_false and is_null.
func TestContextFunctions(t *testing.T) {
	cases := []struct {
		path, get                  string
		has, isTrue, isFalse, null int
	}{
		{"binding", "pods", 0, 1, 1, 1},
		{"object.metadata.name", "web-1", 0, 1, 1, 1},
		{".object.metadata.name", "web-1", 0, 1, 1, 1},
		{"object.spec.enabled", "true", 0, 0, 1, 1},
		{"object.spec.off", "false", 0, 1, 0, 1},
		{"object.spec.nothing", "null", 0, 1, 1, 0},
		{"object.spec.missing", "null", 1, 1, 1, 0},
		// jq 1.6 says false for a null parent, later ones an error:
		// nullParent is either status.
		{"object.missing.deeper", "null", nullParent, 1, 1, 0},
		{"object.spec.text.deeper", "", 5, 5, 5, 5},
		{"object.spec.list.1.x", "2", 0, 1, 1, 1},
		{"object.spec.list.1", "{\n  \"x\": 2\n}", 0, 1, 1, 1},
		{"object.spec.list.5", "null", 1, 1, 1, 0},
		{"object.spec.list.x", "", 5, 5, 5, 5},
		{"object.spec.list[0].x", "1", 0, 1, 1, 1},
		{"object.spec.list | length", "2", 1, 1, 1, 1},
		{"object.spec.obj", "{\n  \"k\": \"v\"\n}", 0, 1, 1, 1},
		{"object.metadata.labels.my-key", "dash", 0, 1, 1, 1},
		{`object.metadata.labels."app.kubernetes.io/name"`, "web", 0, 1, 1, 1},
		{`object.metadata.labels.'app.kubernetes.io/name'`, "web", 0, 1, 1, 1},
		{`object.metadata.labels."app.kubernetes.io/other"`, "null", 1, 1, 1, 0},
		{`object.metadata.labels."plain"`, "p", 0, 1, 1, 1},
		{`object.metadata.labels."0"`, "zero-key", 0, 1, 1, 1},
		{"object.metadata.labels.0", "", 5, 5, 5, 5},
	}
	var body strings.Builder
	for _, c := range cases {
		p := quote(c.path)
		body.WriteString("echo \"$(context::get " + p + " 2>/dev/null || :)|" +
			"$(context::has " + p + " 2>/dev/null; echo $?)|$(context::is_true " + p + " 2>/dev/null; echo $?)|" +
			"$(context::is_false " + p + " 2>/dev/null; echo $?)|$(context::is_null " + p + " 2>/dev/null; echo $?)\"\necho @@\n")
	}
	res := inHandler(t, "set +e; trap - ERR\n"+body.String())
	rows := strings.Split(res.stdout, "@@\n")
	if res.code != 0 || len(rows) != len(cases)+1 {
		t.Fatalf("status %d, stdout\n%s\nstderr\n%s", res.code, res.stdout, res.stderr)
	}
	for i, c := range cases {
		has := itoa(c.has)
		if c.has == nullParent {
			has = "1"
			if strings.Contains(rows[i], "|5|") {
				has = "5"
			}
		}
		want := c.get + "|" + has + "|" + itoa(c.isTrue) + "|" + itoa(c.isFalse) + "|" + itoa(c.null) + "\n"
		if rows[i] != want {
			t.Errorf("path %s: got %q, want %q (get|has|is_true|is_false|is_null)", c.path, rows[i], want)
		}
	}
}

// nullParent stands for has's status on a key of null: 1 or 5.
const nullParent = -1

func itoa(n int) string { return string(rune('0' + n)) }

// A has of a path that is not jq (a parent with a space) is jq's syntax
// error, status 3; the empty path is the context itself, which exists.
func TestContextHasStatuses(t *testing.T) {
	res := inHandler(t, `set +e; context::has 'object.not jq.x' 2>/dev/null; echo $?; context::has ''; echo $?`)
	res.expect(t, 0, "3\n0\n")
}

// get with no path prints the whole current context; --required fails on
// a missing key with the error line and passes a present one.
func TestContextGetWholeAndRequired(t *testing.T) {
	res := inHandler(t, `context::get`)
	var got, want []any
	if err := json.Unmarshal([]byte("["+res.stdout+"]"), &got); err != nil || res.code != 0 {
		t.Fatalf("status %d, %v: %s", res.code, err, res.stdout)
	}
	if err := json.Unmarshal([]byte(contextFile), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got[0], want[1]) {
		t.Fatalf("context::get printed %s, want the second context", res.stdout)
	}

	inHandler(t, `context::get --required object.metadata.name`).expect(t, 0, "web-1\n")
	res = inHandler(t, `set +e; trap - ERR; context::get --required object.spec.missing; echo "status $?"`)
	res.expect(t, 0, "status 1\n")
	if res.stderr != "Error: Value object.spec.missing required, but doesn't exist\n" {
		t.Fatalf("stderr %q", res.stderr)
	}
	// Under errexit a missing required value ends the hook.
	res = inHandler(t, `v=$(context::get --required object.spec.missing); echo "never $v"`)
	if res.code != 1 || res.stdout != "" {
		t.Fatalf("status %d, stdout %q", res.code, res.stdout)
	}
}

// context::jq applies every flag to the current context; context::global::jq
// reads the whole array; context::jq outside a handler names what is
// missing.
func TestContextJq(t *testing.T) {
	inHandler(t, `context::jq -c --arg suffix "!" '{name: (.object.metadata.name + $suffix), e: .watchEvent}'
context::jq -e '.object.spec.enabled' >/dev/null && echo enabled
context::global::jq -r 'length, .[0].binding'`).expect(t, 0, "{\"name\":\"web-1!\",\"e\":\"Added\"}\nenabled\n2\nfirst\n")

	res := hookRun(t, contextFile, `context::jq -r .binding; echo never`)
	if res.code == 0 || res.stdout != "" || !strings.Contains(res.stderr, "context::jq: no current binding context") {
		t.Fatalf("status %d, stdout %q, stderr\n%s", res.code, res.stdout, res.stderr)
	}
	hookRun(t, contextFile, `BINDING_CONTEXT_CURRENT_INDEX=0 context::get binding`).expect(t, 0, "first\n")
}
