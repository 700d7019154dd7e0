package debugapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/debugapi"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/test/actortest"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/values/mask"
)

// passwordBoard has a module "web" whose schema marks db.password and
// global token as passwords; a hook patched db.password and copied it.
func passwordBoard() *board.Board {
	b := board.New()
	b.SetGlobal(values.Snapshot{Key: values.GlobalKey, Config: map[string]any{"token": "global-marker-1"},
		Values: map[string]any{"token": "global-marker-1", "region": "eu"}}, nil)
	b.SetPasswords(values.GlobalKey, mask.Paths{{"token"}})
	b.SetModuleValues("web", values.Snapshot{Key: "web",
		Config: map[string]any{"db": map[string]any{"password": "config-marker-1"}},
		Values: map[string]any{"db": map[string]any{"password": "patch-marker-1", "host": "db"}, "copy": "patch-marker-1"}})
	b.SetPasswords("web", mask.Paths{{"db", "password"}})
	b.SetPatches("web", json.RawMessage(`[{"op":"add","path":"/web/db","value":{"password":"patch-marker-1"}},`+
		`{"op":"add","path":"/web/copy","value":"patch-marker-1"},{"op":"add","path":"/web/db/host","value":"db"}]`))
	return b
}

const renderedWithSecret = `---
# Source: web/templates/secret.yaml
apiVersion: v1
kind: Secret
metadata:
  name: web
data:
  key: ZGF0YS1tYXJrZXItMQ==
---
# Source: web/templates/cm.yaml
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  DB_PASSWORD: patch-marker-1
`

func TestValuesAndRenderMaskPasswords(t *testing.T) {
	kit := actortest.New(t)
	h := debugapi.NewHandler(debugapi.Options{Board: passwordBoard(), Inspector: kit.Inspector,
		Render: func(context.Context, string) (string, error) { return renderedWithSecret, nil }})
	for _, path := range []string{"/global/values", "/modules/web/values", "/modules/web/render"} {
		t.Run(path, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
			body := rec.Body.String()
			if rec.Code != http.StatusOK {
				t.Fatalf("status %d: %s", rec.Code, body)
			}
			if strings.Contains(body, "marker") || strings.Contains(body, "ZGF0YS1tYXJrZXItMQ") {
				t.Fatalf("%s shows a password or a Secret's data:\n%s", path, body)
			}
			if !strings.Contains(body, "sha256:") {
				t.Fatalf("%s shows no mask:\n%s", path, body)
			}
		})
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/modules/web/values", nil))
	var got debugapi.ModuleValues
	if err := json.Unmarshal(rec.Body.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	db := got.Values.(map[string]any)["db"].(map[string]any)
	if db["password"] != mask.String("patch-marker-1") || db["host"] != "db" {
		t.Fatalf("values: %v", got.Values)
	}
	var patches bytes.Buffer
	if err := json.Compact(&patches, got.Patches); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(patches.String(), `"value":{"password":"`+mask.String("patch-marker-1")+`"}`) {
		t.Fatalf("patches: %s", patches.String())
	}
}

// `hook snapshots` shows a watched Secret with its data, stringData and
// filter result masked; other objects as they are.
func TestSnapshotsMaskSecrets(t *testing.T) {
	b := passwordBoard()
	secret := `{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"k":"ZGF0YS1tYXJrZXItMQ=="}}`
	b.SetSnapshot("module/web", "h.sh", "secrets", board.Objects{}.
		With("ns/s", bctx.ObjectAndFilterResult{Object: json.RawMessage(secret), FilterResult: json.RawMessage(`"ZGF0YS1tYXJrZXItMQ=="`)}).
		With("ns/cm", bctx.ObjectAndFilterResult{Object: json.RawMessage(`{"apiVersion":"v1","kind":"ConfigMap","data":{"a":"plain"}}`)}))
	kit := actortest.New(t)
	h := debugapi.NewHandler(debugapi.Options{Board: b, Inspector: kit.Inspector})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/snapshots?owner=module/web&hook=h.sh", nil))
	body := rec.Body.String()
	if rec.Code != http.StatusOK || strings.Contains(body, "ZGF0YS1tYXJrZXIt") || !strings.Contains(body, mask.String("data-marker-1")) ||
		!strings.Contains(body, `"plain"`) {
		t.Fatalf("status %d:\n%s", rec.Code, body)
	}
}
