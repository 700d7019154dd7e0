package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
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
func (p *process) runWithLease(ctx context.Context) error {
	e, err := p.newElection(ctx)
	if err != nil {
		return err
	}
	defer e.stop()
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
	id := p.s.Pod
	if id == "" {
		host, err := os.Hostname()
		if err != nil {
			return nil, fmt.Errorf("leader identity: set ADDON_OPERATOR_POD: %w", err)
		}
		id = host
	}
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
	return e, err
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
