package scenario

import "strings"

// ImmutableChart is the files of a module dir (relative to it) whose
// upgrade fails half-way when its value changes: NAME-0 holds
// NAME.value, NAME-extra is there while NAME.extra is true, and
// NAME-frozen, an immutable ConfigMap after them, holds NAME.value too. A
// new value with extra true writes NAME-0 and NAME-extra, then fails on
// NAME-frozen: what a rollback must undo. name is one word (it is the
// values key too).
func ImmutableChart(name string) map[string]string {
	files := map[string]string{"templates/a.yaml": immutableFirst, "templates/z.yaml": immutableLast,
		"Chart.yaml": "apiVersion: v2\nname: NAME\nversion: 0.1.0\n", "values.yaml": "NAME:\n  value: a\n  extra: false\n"}
	for path, text := range files {
		files[path] = strings.ReplaceAll(text, "NAME", name)
	}
	return files
}

// The templates of ImmutableChart, NAME for its name.
const (
	immutableFirst = `apiVersion: v1
kind: ConfigMap
metadata:
  name: NAME-0
data:
  value: {{ .Values.NAME.value | quote }}
{{ if .Values.NAME.extra }}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: NAME-extra
data: {}
{{ end }}`
	immutableLast = `apiVersion: v1
kind: ConfigMap
metadata:
  name: NAME-frozen
immutable: true
data:
  value: {{ .Values.NAME.value | quote }}
`
)
