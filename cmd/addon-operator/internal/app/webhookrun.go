package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/hook/bindings"
	"github.com/addon-actors/addon-operator/hookexec"
	"github.com/addon-actors/addon-operator/hookrun"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/values"
	"github.com/addon-actors/addon-operator/webhook"
)

// WebhookQueue is the queue label of webhook runs in the hook metrics:
// they run outside the queues, at once, as shell-operator's do.
const WebhookQueue = "webhook"

// Admit implements server.Runner: one run of the hook with the review's
// Validating or Mutating context.
func (w *webhooks) Admit(ctx context.Context, a webhook.Admission, request json.RawMessage) ([]byte, error) {
	h, err := w.hook(a.Owner, a.Hook)
	if err != nil {
		return nil, err
	}
	typ, btyp := bctx.Validating, bindings.Validating
	if a.Kind == webhook.Mutating {
		typ, btyp = bctx.Mutating, bindings.Mutating
	}
	c, err := bctx.AdmissionContext(a.Name, typ, request, w.snapshots(a.Owner, h, btyp, a.Name))
	if err != nil {
		return nil, fmt.Errorf("%s hook %s binding %s: %w", a.Owner, a.Hook, a.Name, err)
	}
	res, err := w.run(ctx, a.Owner, h, a.Name, c)
	return res.AdmissionResponse, err
}

// Convert implements server.Runner: one run of the hook for its rule
// from → to.
func (w *webhooks) Convert(ctx context.Context, cv webhook.Conversion, from, to string, request json.RawMessage) ([]byte, error) {
	h, err := w.hook(cv.Owner, cv.Hook)
	if err != nil {
		return nil, err
	}
	var req bctx.ConversionRequest
	if err := json.Unmarshal(request, &req); err != nil {
		return nil, fmt.Errorf("%s hook %s binding %s: read conversion request: %w", cv.Owner, cv.Hook, cv.Name, err)
	}
	step := bctx.ConversionStep{FromVersion: from, ToVersion: to, Request: req}
	c, err := bctx.ConversionContext(cv.Name, step, w.snapshots(cv.Owner, h, bindings.Conversion, cv.Name))
	if err != nil {
		return nil, fmt.Errorf("%s hook %s binding %s: %w", cv.Owner, cv.Hook, cv.Name, err)
	}
	res, err := w.run(ctx, cv.Owner, h, cv.Name, c)
	return res.ConversionResponse, err
}

func (w *webhooks) hook(owner, name string) (hookrun.Hook, error) {
	w.mu.Lock()
	o, ok := w.owners[owner]
	w.mu.Unlock()
	if ok {
		if h, found := o.hooks.Find(name); found {
			return h, nil
		}
	}
	return hookrun.Hook{}, fmt.Errorf("%s hook %s: not registered", owner, name)
}

// snapshots are the published objects of the kubernetes bindings the
// binding includes, as they are now; nil when it includes none.
func (w *webhooks) snapshots(owner string, h hookrun.Hook, t bindings.Type, binding string) bctx.Snapshots {
	names, ok := h.Config.WebhookSnapshotNames(t, binding)
	if !ok {
		return nil
	}
	current, _ := w.board.Snapshots(boardOwner(owner), h.Name)
	return bctx.Pick(current, names)
}

// run runs the hook as the queues' runs do (values, env, files), under
// ctx (the review's deadline: the runner kills the hook's process group
// when it ends), and counts it in the hook metrics. Its values patches and
// object patches are not applied: a review only answers.
func (w *webhooks) run(ctx context.Context, owner string, h hookrun.Hook, binding string, c bctx.Context) (hookexec.Result, error) {
	req, err := w.request(owner, h, bctx.Marshal([]bctx.Context{c}))
	if err != nil {
		return hookexec.Result{}, err
	}
	req.WebhookResponses = true
	req.Logger = w.log.With("owner", owner, "hook", h.Name, "binding", binding, "queue", WebhookQueue)
	res, err := w.runner.Run(ctx, req)
	if err != nil {
		err = fmt.Errorf("%s hook %s binding %s: %w", owner, h.Name, binding, err)
	}
	module := owner
	if owner == webhook.GlobalOwner {
		module = ""
	}
	w.metrics.HookRun(hookrun.HookRun{Module: module, Hook: h.Name,
		Info: hookrun.RunInfo{Binding: binding, Queue: WebhookQueue}, Result: res, Err: err})
	w.board.RecordHookRun(boardOwner(owner), h.Name, 1, err)
	return res, err
}

// request is the hook's request with the values published now.
func (w *webhooks) request(owner string, h hookrun.Hook, context []byte) (hookexec.Request, error) {
	global := w.board.Global()
	if owner == webhook.GlobalOwner {
		return hookrun.Request(h, context, values.GlobalHookInput(global), hookexec.PatchScope{RootKey: values.GlobalKey}, nil)
	}
	own, _ := w.board.ModuleValues(owner)
	in := values.ModuleHookInput(global, own, w.board.EnabledModules())
	return hookrun.Request(h, context, in, hookexec.PatchScope{RootKey: own.Key}, nil)
}

// boardOwner is the board's name of a webhook owner.
func boardOwner(owner string) string {
	if owner == webhook.GlobalOwner {
		return messages.OwnerGlobal
	}
	return messages.ModuleOwner(owner)
}
