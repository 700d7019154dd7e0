package chartrun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/addon-actors/addon-operator/chartrun/readiness"
)

// ErrNotReady is wrapped by the error of a wait that timed out or that
// found an object that will not become ready (a failed Job).
var ErrNotReady = errors.New("release workloads not ready")

// DefaultWaitTimeout bounds a wait whose Request gives no timeout.
const DefaultWaitTimeout = 5 * time.Minute

// Wait outcomes (WaitOutcome.Outcome).
const (
	WaitReady   = "ready"
	WaitTimeout = "timeout"
	WaitFailed  = "failed"
	// WaitCancelled: the caller's context ended first (the operator stops).
	WaitCancelled = "cancelled"
)

// WaitOutcome says how a wait for the release's workloads ended.
type WaitOutcome struct {
	Outcome string
	Took    time.Duration
}

// progressEvery is the least time between two Progress calls.
const progressEvery = time.Second

// podReasonsLimit bounds the pod lines of a timeout error per workload.
const podReasonsLimit = 5

// waitedObject is one tracked object of the release and its latest body
// (nil: not seen, or deleted).
type waitedObject struct {
	Object
	body map[string]any
}

// readyWait is one wait for a release's tracked objects: every kind and
// namespace is listed and watched by one follower goroutine, which sends
// what it sees to the wait's loop; the loop judges the objects with
// package readiness after each change.
type readyWait struct {
	r       *Releaser
	release string
	objects []*waitedObject
	groups  map[kindIn][]*waitedObject
	seen    chan kindSeen
	// progress reporting: the last lines reported and when.
	progress     func(notReady []string)
	reported     []string
	reportedAt   time.Time
	reportTimer  *time.Timer
	reportIsDue  bool
	reportQueued []string
}

// waitReady waits until the release's tracked objects in manifests are
// ready, one fails, timeout passes or ctx ends, and stops its watches
// before it returns.
func (r *Releaser) waitReady(ctx context.Context, req Request, manifests string) (WaitOutcome, error) {
	start := time.Now()
	w, err := r.newReadyWait(req, manifests)
	if err != nil {
		return WaitOutcome{Outcome: WaitFailed}, fmt.Errorf("release %s: wait: %w", req.Release, err)
	}
	timeout := req.WaitTimeout
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	var wg sync.WaitGroup
	for key, objs := range w.groups {
		wg.Add(1)
		r.readyWatches.Add(1)
		go func() {
			defer wg.Done()
			defer r.readyWatches.Add(-1)
			r.follow(waitCtx, key, objs, w.seen)
		}()
	}
	outcome, err := w.loop(waitCtx, ctx)
	cancel()
	wg.Wait()
	w.stopReports()
	if outcome == WaitTimeout {
		err = w.timedOut(ctx, timeout)
	}
	r.opts.Log.Info("helm release wait", "release", req.Release, "outcome", outcome, "took", time.Since(start).Round(time.Millisecond))
	return WaitOutcome{Outcome: outcome, Took: time.Since(start)}, err
}

// newReadyWait reads the tracked objects of manifests (helm's hooks left
// out, as the release's manifest leaves them) and groups them by kind and
// namespace.
func (r *Releaser) newReadyWait(req Request, manifests string) (*readyWait, error) {
	docs, err := manifestDocs(manifests, withoutHooks, false)
	if err != nil {
		return nil, err
	}
	var tracked []Object
	for _, d := range docs {
		if readiness.Tracked(d.APIVersion, d.Kind) {
			tracked = append(tracked, d.Object)
		}
	}
	groups, unserved, err := r.groupByKind(tracked)
	if err != nil {
		return nil, err
	}
	w := &readyWait{r: r, release: req.Release, groups: map[kindIn][]*waitedObject{},
		seen: make(chan kindSeen), progress: req.Progress}
	byName := map[*Object]*waitedObject{}
	for i := range tracked {
		o := &waitedObject{Object: tracked[i]}
		w.objects = append(w.objects, o)
		byName[&tracked[i]] = o
		if unserved[i] {
			return nil, fmt.Errorf("%s: its kind is not served", waitName(tracked[i]))
		}
	}
	for key, objs := range groups {
		for _, o := range objs {
			w.groups[key] = append(w.groups[key], byName[o])
		}
	}
	return w, nil
}

// loop applies what the followers see until every object is ready, one
// failed, or waitCtx ends (a timeout unless ctx, the caller's, ended).
func (w *readyWait) loop(waitCtx, ctx context.Context) (string, error) {
	listed := map[kindIn]bool{}
	for {
		if len(listed) == len(w.groups) {
			notReady, err := w.judge()
			if err != nil {
				return WaitFailed, err
			}
			if len(notReady) == 0 {
				return WaitReady, nil
			}
			w.report(notReady)
		}
		select {
		case s := <-w.seen:
			listed[s.key] = true
			w.apply(s)
		case <-w.reportDue():
			w.reportNow()
		case <-waitCtx.Done():
			if ctx.Err() != nil {
				return WaitCancelled, fmt.Errorf("release %s: wait: %w", w.release, ctx.Err())
			}
			return WaitTimeout, nil
		}
	}
}

// apply records what a follower saw: a whole list replaces its kind's
// bodies, an event one object's.
func (w *readyWait) apply(s kindSeen) {
	for _, o := range w.groups[s.key] {
		if s.list {
			o.body = s.bodies[o.Name]
		} else if body, ok := s.bodies[o.Name]; ok {
			o.body = body
		}
	}
}

// judge returns the objects not ready, as lines sorted by kind and name;
// an object that will not become ready fails the wait.
func (w *readyWait) judge() ([]string, error) {
	var notReady []string
	for _, o := range w.objects {
		line, st := w.status(o)
		if st.Failed {
			return nil, fmt.Errorf("release %s: %s: %w", w.release, line, ErrNotReady)
		}
		if !st.Ready {
			notReady = append(notReady, line)
		}
	}
	slices.Sort(notReady)
	return notReady, nil
}

// status judges one object and says it in a line: "Deployment ns/web: 1/3
// available (condition ...)".
func (w *readyWait) status(o *waitedObject) (string, readiness.Status) {
	if o.body == nil {
		return waitName(o.Object) + ": not found", readiness.Status{}
	}
	st := readiness.Of(o.body)
	line := waitName(o.Object) + ": " + st.Progress
	if st.Reason != "" {
		line += " (" + st.Reason + ")"
	}
	return line, st
}

// waitName names an object as a user reads it: "Deployment ns/web".
func waitName(o Object) string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// timedOut is the error of a wait that timed out: each object not ready
// and why, with the reasons of its pods (one list of pods per workload).
func (w *readyWait) timedOut(ctx context.Context, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var lines []string
	for _, o := range w.objects {
		line, st := w.status(o)
		if st.Ready {
			continue
		}
		lines = append(lines, line)
		lines = append(lines, w.r.podReasons(ctx, o)...)
	}
	return fmt.Errorf("release %s: not ready after %s: %s: %w", w.release, timeout, strings.Join(lines, "; "), ErrNotReady)
}

// report tells Progress the objects not ready when they changed, at most
// once per progressEvery: a change within it is told when it is over, as
// it stands then.
func (w *readyWait) report(notReady []string) {
	if w.progress == nil {
		return
	}
	w.reportQueued = notReady
	if w.reportIsDue || slices.Equal(notReady, w.reported) {
		return
	}
	wait := progressEvery - time.Since(w.reportedAt)
	if wait <= 0 {
		w.reportNow()
		return
	}
	if w.reportTimer == nil {
		w.reportTimer = time.NewTimer(wait)
	} else {
		w.reportTimer.Reset(wait)
	}
	w.reportIsDue = true
}

// reportDue is the channel of a pending report (nil: none, blocks).
func (w *readyWait) reportDue() <-chan time.Time {
	if !w.reportIsDue {
		return nil
	}
	return w.reportTimer.C
}

func (w *readyWait) reportNow() {
	w.reportIsDue = false
	if w.reportQueued == nil || slices.Equal(w.reportQueued, w.reported) {
		return
	}
	w.reported, w.reportedAt = w.reportQueued, time.Now()
	w.progress(w.reported)
}

func (w *readyWait) stopReports() {
	if w.reportTimer != nil {
		w.reportTimer.Stop()
	}
}
