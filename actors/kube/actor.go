package kube

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/asynkron/protoactor-go/actor"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/addon-actors/addon-operator/board"
	"github.com/addon-actors/addon-operator/forbidden"
	"github.com/addon-actors/addon-operator/hook/bctx"
	"github.com/addon-actors/addon-operator/messages"
	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/supervision/kubewatch"
)

// Options configures the kube actor.
type Options struct {
	Client dynamic.Interface
	// Raw, when set, reads the informers' lists as streams (listraw.go):
	// any REST client of the cluster (its base path is not used). Nil
	// lists through Client.
	Raw    rest.Interface
	Mapper meta.RESTMapper
	Log    *slog.Logger
	// Owner resolves a hook's owner (global, module/NAME), which gets the
	// HookEvents of its bindings; nil resolves owners as siblings (children
	// of the parent).
	Owner func(owner string) *actor.PID
	// Report receives KubeSynced; nil is the parent.
	Report *actor.PID
	// Errors counts objects a jqFilter failed on, bindings that could
	// not be watched, and every failed list or watch call.
	Errors func(owner, hook, binding string)
	// Forbidden, when set, counts a list or watch call the apiserver
	// refused (kube_forbidden_total); owner is global or module/NAME.
	Forbidden func(owner string, d forbidden.Denial)
	// WatchesDown, when set, counts the informers whose last list or
	// watch call failed, until one succeeds.
	WatchesDown kubewatch.Gauge
	// Board, when set, gets every binding's snapshot (see publish.go).
	Board *board.Board
}

// schemaGVR is a resolved resource.
type schemaGVR struct {
	gvr        schema.GroupVersionResource
	namespaced bool
}

// Actor is the kube actor.
type Actor struct {
	opts     Options
	inputs   *inputs
	monitors map[int]*monitor
	byOwner  map[string][]int
	// syncTo: owners that run their Synchronization themselves (each
	// monitor keeps its run until they get them).
	syncTo map[string]*actor.PID
	// waitNamed and waited: owners that wait for the Synchronization of
	// their named queues' bindings (WatchKube.WaitNamed), and those runs.
	waitNamed map[string]bool
	waited    map[string][]messages.SyncRef
	// failed holds, by owner, the bindings that could not be watched.
	failed map[string][]string
	// pending holds the WatchKube of each owner whose kinds are being
	// resolved (see resolve.go).
	pending   map[string]pendingWatch
	published *published
	post      func(any)
}

// inputs are what the owners told the actor. They outlive an instance:
// after a panic the guardian restarts the actor, which starts the monitors
// again (their Synchronization runs again), since no owner would send them
// twice.
type inputs struct {
	watches map[string]messages.WatchKube
	// next numbers monitors across instances, so that an event posted by
	// a stopped informer reaches no monitor of the next instance.
	next int
	// jq compiles each jqFilter text once.
	jq jqCache
	// resolves numbers resolutions across instances, so that one posted
	// for a replaced WatchKube, or to a stopped instance, is ignored.
	resolves int
}

// New returns the producer of a kube actor.
func New(opts Options) actor.Producer {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	in := &inputs{watches: map[string]messages.WatchKube{}, jq: jqCache{}}
	return func() actor.Actor {
		return &Actor{opts: opts, inputs: in, monitors: map[int]*monitor{}, byOwner: map[string][]int{},
			syncTo: map[string]*actor.PID{}, failed: map[string][]string{},
			waitNamed: map[string]bool{}, waited: map[string][]messages.SyncRef{},
			pending: map[string]pendingWatch{}, published: newPublished()}
	}
}

// Receive implements actor.Actor.
func (a *Actor) Receive(ctx actor.Context) {
	switch msg := ctx.Message().(type) {
	case *actor.Started:
		a.handleStarted(ctx)
	case messages.WatchKube:
		a.handleWatch(ctx, msg)
	case resolved:
		a.handleResolved(ctx, msg)
	case objectEvent:
		a.handleObjectPublished(ctx, msg)
	case informerSynced:
		a.handleSynced(ctx, msg)
	case watchFailed:
		a.handleWatchFailed(msg)
	case namespaceEvent:
		a.handleNamespacePublished(ctx, msg)
	case publishSnapshots:
		a.handlePublish()
	case messages.GetSnapshots:
		a.handleGetSnapshots(ctx, msg)
	case *actor.Stopping, *actor.Restarting:
		a.stopMonitors()
	}
}

func (a *Actor) handleStarted(ctx actor.Context) {
	a.opts.Owner = supervision.OrSiblings(a.opts.Owner, ctx)
	if a.opts.Report == nil {
		a.opts.Report = ctx.Parent()
	}
	root, self := ctx.ActorSystem().Root, ctx.Self()
	a.post = func(msg any) { root.Send(self, msg) }
	replay := func(w messages.WatchKube) { a.handleWatch(ctx, w) }
	if n := supervision.Replay(a.inputs.watches, replay); n > 0 {
		a.opts.Log.Info("monitors started again after a restart", "owners", n)
	}
}

// handleWatch replaces an owner's monitors; they start once their kinds
// are resolved, off the mailbox (handleResolved).
func (a *Actor) handleWatch(ctx actor.Context, msg messages.WatchKube) {
	a.unpublish(msg.Owner)
	for _, id := range a.byOwner[msg.Owner] {
		a.stopMonitor(id)
	}
	delete(a.byOwner, msg.Owner)
	delete(a.pending, msg.Owner)
	delete(a.syncTo, msg.Owner)
	delete(a.failed, msg.Owner)
	delete(a.waited, msg.Owner)
	delete(a.inputs.watches, msg.Owner)
	a.waitNamed[msg.Owner] = msg.WaitNamed
	if len(msg.Monitors) > 0 {
		a.inputs.watches[msg.Owner] = msg
	}
	if msg.SyncTo != nil {
		a.syncTo[msg.Owner] = msg.SyncTo
	}
	if len(msg.Monitors) == 0 {
		a.reportIfSynced(ctx, msg.Owner)
		return
	}
	a.inputs.resolves++
	token, mapper, post := a.inputs.resolves, a.opts.Mapper, a.post
	a.pending[msg.Owner] = pendingWatch{token: token, msg: msg}
	go func() {
		post(resolved{owner: msg.Owner, token: token, mappings: resolveAll(mapper, msg.Monitors)})
	}()
}

// handleResolved starts the monitors of a WatchKube whose kinds are
// resolved, unless a newer WatchKube of the owner replaced it.
func (a *Actor) handleResolved(ctx actor.Context, r resolved) {
	p, ok := a.pending[r.owner]
	if !ok || p.token != r.token {
		return
	}
	delete(a.pending, r.owner)
	for i, h := range p.msg.Monitors {
		err := r.mappings[i].err
		if err == nil {
			var id int
			if id, err = a.startMonitor(p.msg, h, r.mappings[i].mapping); err == nil {
				a.retrack(ctx, id)
				continue
			}
		}
		a.opts.Log.Error("cannot watch", "owner", r.owner, "hook", h.Hook, "binding", h.Binding.Name, "err", err)
		a.countError(r.owner, h.Hook, h.Binding.Name)
		a.failed[r.owner] = append(a.failed[r.owner], err.Error())
	}
	a.reportIfSynced(ctx, r.owner)
}

// reportIfSynced sends KubeSynced once every monitor of owner has synced.
func (a *Actor) reportIfSynced(ctx actor.Context, owner string) {
	if _, resolving := a.pending[owner]; resolving {
		return
	}
	for _, id := range a.byOwner[owner] {
		if m := a.monitors[id]; m != nil && !m.initialDone {
			return
		}
	}
	if to := a.syncTo[owner]; to != nil {
		ctx.Send(to, messages.KubeSyncRuns{Owner: owner, Runs: a.ownerSyncRuns(owner), Waited: a.waited[owner], Err: strings.Join(a.failed[owner], "; ")})
		delete(a.syncTo, owner)
		delete(a.waited, owner)
		if w, ok := a.inputs.watches[owner]; ok {
			w.SyncTo = nil // its first run has them: after a restart they go out as HookEvents
			a.inputs.watches[owner] = w
		}
	}
	if a.opts.Report != nil {
		ctx.Send(a.opts.Report, messages.KubeSynced{Owner: owner, Err: strings.Join(a.failed[owner], "; ")})
	}
}

// startMonitor starts a monitor of a resolved binding and returns its id;
// a selector or jqFilter that does not compile is the binding's error.
func (a *Actor) startMonitor(msg messages.WatchKube, h messages.HookMonitor, mapping *meta.RESTMapping) (int, error) {
	sel, err := compileBinding(h.Binding, a.inputs.jq)
	if err != nil {
		return 0, fmt.Errorf("hook %s binding %s: %w", h.Hook, h.Binding.Name, err)
	}
	a.inputs.next++
	m := &monitor{id: a.inputs.next, owner: msg.Owner, module: msg.Module, hook: h, kind: mapping.GroupVersionKind.Kind,
		sel: sel, snapshot: map[string]*item{}}
	m.watch = kubewatch.Options{Log: a.opts.Log, Down: a.opts.WatchesDown,
		Failed: func(error) { a.countError(msg.Owner, h.Hook, h.Binding.Name) }}
	a.monitors[m.id] = m
	a.byOwner[msg.Owner] = append(a.byOwner[msg.Owner], m.id)
	m.start(clients{dynamic: a.opts.Client, raw: a.opts.Raw}, schemaGVR{gvr: mapping.Resource, namespaced: mapping.Scope.Name() == meta.RESTScopeNameNamespace}, a.post)
	return m.id, nil
}

func (a *Actor) stopMonitor(id int) {
	if m, ok := a.monitors[id]; ok {
		m.stop()
		delete(a.monitors, id)
	}
}

// stopMonitors stops every monitor: the actor stops or restarts (a restart
// starts them again from the replayed watches).
func (a *Actor) stopMonitors() {
	for id := range a.monitors {
		a.stopMonitor(id)
	}
}

// handleWatchFailed logs a list or watch that the apiserver refused (the
// monitor's guard retries it being away itself, and counts every failed
// call), which the reflector retries. A refusal (RBAC) is an error someone
// must fix.
func (a *Actor) handleWatchFailed(f watchFailed) {
	m, ok := a.monitors[f.monitor]
	if !ok {
		return
	}
	m.failures[f.source]++
	verb, resource, namespace := "watch", m.gvr.gvr.GroupResource().String(), f.source
	if ae := (*accessError)(nil); errors.As(f.err, &ae) {
		verb, resource, namespace = ae.verb, ae.resource, ae.namespace
	}
	level, msg := slog.LevelWarn, "cannot "+verb+" "+resource+"; retrying"
	if denied(f.err) {
		level, msg = slog.LevelError, "not allowed to "+verb+" "+resource+"; retrying"
	}
	if d, ok := forbidden.Find(f.err); ok {
		msg += "; " + d.String()
		if a.opts.Forbidden != nil {
			a.opts.Forbidden(m.owner, d)
		}
	}
	a.opts.Log.Log(context.Background(), level, msg, "owner", m.owner, "hook", m.hook.Hook, "binding", m.hook.Binding.Name,
		"verb", verb, "resource", resource, "namespace", namespace, "failures", m.failures[f.source], "err", f.err)
}

func (a *Actor) countError(owner, hook, binding string) {
	if a.opts.Errors != nil {
		a.opts.Errors(owner, hook, binding)
	}
}

// handleGetSnapshots answers with the objects of every binding of the hook
// (none yet for a binding whose kind is being resolved).
func (a *Actor) handleGetSnapshots(ctx actor.Context, msg messages.GetSnapshots) {
	out := bctx.Snapshots{}
	for _, h := range a.pending[msg.Owner].msg.Monitors {
		if h.Hook == msg.Hook {
			out[h.Binding.Name] = []bctx.ObjectAndFilterResult{}
		}
	}
	for _, id := range a.byOwner[msg.Owner] {
		if m := a.monitors[id]; m != nil && m.hook.Hook == msg.Hook {
			out[m.hook.Binding.Name] = m.objects()
		}
	}
	ctx.Respond(messages.HookSnapshots{Snapshots: out, Tag: msg.Tag})
}

// handleNamespace starts or stops the informer of a namespace that a
// binding's namespace label selector picks or drops.
func (a *Actor) handleNamespace(ev namespaceEvent) {
	m, ok := a.monitors[ev.monitor]
	if !ok || ev.name == "" {
		return
	}
	if ev.added {
		if m.startNamespace(ev.name) {
			a.opts.Log.Info("namespace picked: watching its objects", "owner", m.owner, "hook", m.hook.Hook,
				"binding", m.hook.Binding.Name, "namespace", ev.name)
		}
		return
	}
	if m.stopNamespace(ev.name) {
		a.opts.Log.Info("namespace dropped: its objects leave the snapshot", "owner", m.owner, "hook", m.hook.Hook,
			"binding", m.hook.Binding.Name, "namespace", ev.name)
	}
}
