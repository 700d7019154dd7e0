package hookexec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
)

// A global actor's path through the package: discover the hooks, read their
// binding configuration, run one with a binding context and values, and
// take its patch.
func Example() {
	ctx := context.Background()
	runner := hookexec.NewRunner(hookexec.Options{
		Logger:  slog.New(slog.DiscardHandler),
		Environ: os.Environ(),
		// EnvAllowlist: hookexec.ParseEnvAllowlist(os.Getenv("HOOK_ENV_ALLOWLIST")),
	})
	defer runner.Close()

	hooks, err := hookexec.DiscoverGlobalHooks("testdata/example/global-hooks")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, hook := range hooks {
		cfg, err := runner.Config(ctx, hook, bindings.ScopeGlobal)
		if err != nil {
			fmt.Println(err)
			return
		}
		order, _ := cfg.Order(bindings.OnStartup)
		fmt.Println(hook.Name, cfg.Version, "onStartup", order, "schedule", cfg.Schedules[0].Name)

		res, err := runner.Run(ctx, hookexec.Request{
			Hook:           hook,
			BindingContext: bctx.Marshal([]bctx.Context{bctx.Order(string(bindings.OnStartup), nil)}),
			Values:         []byte(`{"global":{}}`),
			ConfigValues:   []byte(`{"global":{}}`),
			Scope:          hookexec.PatchScope{RootKey: "global", AllowEnabledKeys: true},
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		patch, _ := json.Marshal(res.ValuesPatch)
		fmt.Println("exit", res.ExitCode, "values patch", string(patch))
	}
	// Output:
	// 001-discover.sh v1 onStartup 10 schedule hourly
	// exit 0 values patch [{"op":"add","path":"/global/discovered","value":true}]
}

func ExampleParsePatch() {
	scope := hookexec.PatchScope{RootKey: "someModule"}
	patch, err := hookexec.ParsePatch([]byte(`{"op":"add","path":"/someModule/param3","value":"newValue"}`), scope)
	fmt.Println(len(patch), err)

	_, err = hookexec.ParsePatch([]byte(`[{"op":"add","path":"/otherModule/x","value":1}]`), scope)
	fmt.Println(err)
	// Output:
	// 1 <nil>
	// operation 0: patch outside the hook's values: add path "/otherModule/x": this hook may only change /someModule
}

func ExampleParseEnvAllowlist() {
	allow := hookexec.ParseEnvAllowlist("HOME,KUBE_*")
	fmt.Println(allow.Allows("HOME"), allow.Allows("KUBE_CONFIG"), allow.Allows("PATH"), allow.Allows("AWS_SECRET_ACCESS_KEY"))
	// Output: true true true false
}
