package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/addon-actors/addon-operator/cmd/addon-operator/internal/app"
)

// LeaseName is the Lease the replicas compete for, in the operator's
// namespace.
const LeaseName = "addon-operator-leader-election"

// errLostLease ends a leader that lost its lease: it exits so that it
// cannot act beside the next leader.
var errLostLease = errors.New("lost the leader lease; exiting")

// runWithLease runs the operator only while this replica holds the Lease.
// On SIGTERM the leader stops its work (within the grace period) before it
// releases the lease; a leader whose lease is lost stops at once and exits.
// Every replica answers ModuleConfig reviews (reg holds the server's
// metrics); only the leader registers the webhook (app.Start). The server
// starts once the candidacy exists, so that the port never answers as if
// no election ran.
func (p *process) runWithLease(ctx context.Context, reg prometheus.Registerer) error {
	e, err := p.newElection(ctx)
	if err != nil {
		return err
	}
	defer e.stop()
	p.reviews = app.ServeModuleConfigReviews(appConfig(p.s, p.cfg, p.log), reg)
	defer p.reviews.Stop()
	go func() {
		<-ctx.Done()
		if !e.leading.Load() {
			e.stop() // a follower just leaves
		}
	}()
	e.elector.Run(e.ctx)
	if !e.leading.Load() {
		return nil
	}
	err = <-e.done
	if ctx.Err() == nil {
		return errors.Join(err, errLostLease)
	}
	return err
}

// election is this replica's candidacy: Run renews until ctx is cancelled
// (stop), which the leader does only after its work has stopped.
type election struct {
	elector *leaderelection.LeaderElector
	ctx     context.Context
	stop    context.CancelFunc
	leading atomic.Bool
	done    chan error
}

func (p *process) newElection(ctx context.Context) (*election, error) {
	pod := p.s.Pod
	if pod == "" {
		host, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("leader identity: set ADDON_OPERATOR_POD: %w", err)
		}
		pod = host
	}
	id := leaseIdentity(pod, p.s.ListenAddress, p.s.Namespace)
	client, err := kubernetes.NewForConfig(p.cfg)
	if err != nil {
		return nil, err
	}
	e := &election{done: make(chan error, 1)}
	e.ctx, e.stop = context.WithCancel(context.Background())
	lock := &resourcelock.LeaseLock{LeaseMeta: metav1.ObjectMeta{Name: LeaseName, Namespace: p.s.Namespace},
		Client: client.CoordinationV1(), LockConfig: resourcelock.ResourceLockConfig{Identity: id}}
	e.elector, err = leaderelection.NewLeaderElector(leaderelection.LeaderElectionConfig{
		Lock: lock, LeaseDuration: p.s.Lease.Duration, RenewDeadline: p.s.Lease.RenewDeadline, RetryPeriod: p.s.Lease.RetryPeriod,
		ReleaseOnCancel: true, Name: LeaseName,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(lctx context.Context) {
				e.leading.Store(true)
				p.log.Info("leading", "identity", id)
				e.done <- p.lead(ctx, lctx)
				e.stop()
			},
			OnStoppedLeading: func() { p.log.Info("not leading", "identity", id) },
		},
	})
	if err == nil {
		p.elector.Store(e.elector)
	}
	return e, err
}

// leaseIdentity is this replica's identity in the Lease: the original's,
// POD.IP-DASHED.NAMESPACE.pod, when the port listens on one address (the
// pod's IP, as the original's Deployments set it), so that a follower of
// either kind finds the leader's address in it; else the pod's name.
func leaseIdentity(pod, listenAddress, namespace string) string {
	if ip := net.ParseIP(listenAddress); ip == nil || ip.IsUnspecified() {
		return pod
	}
	return fmt.Sprintf("%s.%s.%s.pod", pod, strings.ReplaceAll(listenAddress, ".", "-"), namespace)
}

// leaderHost is where a follower asks the leader for its readiness: the IP
// in an identity of the original's form, else the identity itself as a
// host name (as the original does).
func leaderHost(identity string) string {
	labels := strings.Split(identity, ".")
	if n := len(labels); n >= 4 && labels[n-1] == "pod" {
		dotted := strings.ReplaceAll(labels[n-3], "-", ".")
		if net.ParseIP(dotted) != nil {
			return dotted
		}
	}
	return identity
}

// leader tells the HTTP port whom a follower asks for readiness: the
// leader's host, and whether this replica follows (a candidate that does
// not lead; not before its candidacy starts).
func (p *process) leader() (host string, following bool) {
	e := p.elector.Load()
	if e == nil || e.IsLeader() {
		return "", false
	}
	if id := e.GetLeader(); id != "" {
		host = leaderHost(id)
	}
	return host, true
}

// lead runs the operator until SIGTERM (ctx) or the loss of the lease
// (lctx); after a loss no grace is given: the work stops at once.
func (p *process) lead(ctx, lctx context.Context) error {
	appCtx, cancel := context.WithCancel(lctx)
	defer cancel()
	go func() {
		select {
		case <-ctx.Done():
			cancel()
		case <-appCtx.Done():
		}
	}()
	return p.runOperator(appCtx, func() time.Duration {
		if ctx.Err() == nil {
			return 0
		}
		return p.s.ShutdownGrace
	})
}
