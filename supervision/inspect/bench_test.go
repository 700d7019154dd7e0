package inspect_test

import (
	"log/slog"
	"sync"
	"testing"

	"github.com/asynkron/protoactor-go/actor"

	"github.com/addon-actors/addon-operator/supervision"
	"github.com/addon-actors/addon-operator/supervision/inspect"
)

// counter counts messages and closes done after want of them.
type counter struct {
	want int
	n    int
	done chan struct{}
}

func (c *counter) Receive(ctx actor.Context) {
	if _, ok := ctx.Message().(noop); ok {
		c.n++
		if c.n == c.want {
			close(c.done)
		}
	}
}

// BenchmarkOneWay measures one-way message cost: a bare protoactor Send, the
// same through the inspector's mailbox, and a buffered Go channel. The
// figure to read is the difference between the first two (target: at most
// 150 ns per message).
func BenchmarkOneWay(b *testing.B) {
	b.Run("protoactor-bare", func(b *testing.B) { benchSend(b, nil) })
	b.Run("protoactor-inspected", func(b *testing.B) {
		reg := inspect.NewRegistry(supervision.RealClock{})
		benchSend(b, []actor.PropsOption{actor.WithMailbox(reg.Mailbox("bench"))})
	})
	b.Run("go-channel", benchChannel)
}

func benchSend(b *testing.B, opts []actor.PropsOption) {
	sys := actor.NewActorSystemWithConfig(actor.Configure(actor.WithLoggerFactory(
		func(*actor.ActorSystem) *slog.Logger { return slog.New(slog.DiscardHandler) })))
	defer sys.Shutdown()
	done := make(chan struct{})
	pid := sys.Root.Spawn(actor.PropsFromProducer(func() actor.Actor {
		return &counter{want: b.N, done: done}
	}, opts...))
	defer sys.Root.Stop(pid)
	b.ResetTimer()
	for range b.N {
		sys.Root.Send(pid, noop{})
	}
	<-done
}

func benchChannel(b *testing.B) {
	ch := make(chan any, 1024)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for range b.N {
			<-ch
		}
	}()
	b.ResetTimer()
	for range b.N {
		ch <- noop{}
	}
	wg.Wait()
}
