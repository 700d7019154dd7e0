package worker

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookexec/objectpatch"
	"github.com/addon-actors/addon-operator/values"
)

// ObjectPatcher applies a hook run's object patches for their owner (a
// module name or "global"); *objectpatch.Applier implements it.
type ObjectPatcher interface {
	Apply(ctx context.Context, owner string, ops []objectpatch.Operation) error
}

// WithObjectPatches returns runner whose hook runs apply their object
// patches ($KUBERNETES_PATCH_PATH) through patcher after the hook exited 0,
// before the result goes back to the owner. A failed operation fails the
// run, so the owner's core sees one hook failure (retried as such) and
// applies none of the run's values patches; the metrics the hook wrote are
// kept, as they are applied before object patches (UPSTREAM.md §1.8).
func WithObjectPatches(runner Runner, patcher ObjectPatcher) Runner {
	return patchingRunner{Runner: runner, patcher: patcher}
}

type patchingRunner struct {
	Runner
	patcher ObjectPatcher
}

func (r patchingRunner) Run(ctx context.Context, req hookexec.Request) (hookexec.Result, error) {
	res, err := r.Runner.Run(ctx, req)
	if err != nil || len(res.ObjectPatches) == 0 {
		return res, err
	}
	if err := r.patcher.Apply(ctx, Owner(req), res.ObjectPatches); err != nil {
		res.ValuesPatch, res.ConfigValuesPatch = nil, nil
		return res, fmt.Errorf("hook %s: %s: %w", req.Hook.Name, hookexec.EnvKubernetesPatchPath, err)
	}
	return res, nil
}

// Owner names whose hook req runs: "global", or the module whose hooks/
// dir holds the hook.
func Owner(req hookexec.Request) string {
	if req.Scope.RootKey == values.GlobalKey {
		return values.GlobalKey
	}
	names, err := values.ParseModuleDir(filepath.Base(filepath.Dir(req.Hook.Root)))
	if err != nil {
		return req.Scope.RootKey
	}
	return names.Name
}
