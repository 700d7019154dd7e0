package hookexec

import (
	"io"
	"log/slog"
	"sync"

	"github.com/addon-actors/addon-operator/hook/bctx"
)

// DefaultContextWarnBytes is the binding context file size past which a run
// is logged at WARN (Options.ContextWarnBytes).
const DefaultContextWarnBytes = 64 << 20

// contextWritten is what a run's binding context file got: its size, and
// the bytes of each binding's contexts when written from Request.Contexts.
type contextWritten struct {
	total int64
	sizes bctx.Sizes
}

// file is the binding context input of req: Request.Contexts written as a
// stream, else Request.BindingContext; either way w learns the size.
func (w *contextWritten) file(path string, req Request) fileContent {
	f := fileContent{env: EnvBindingContextPath, path: path, data: req.BindingContext, empty: "[]"}
	if req.Contexts != nil {
		f.stream = func(out io.Writer) (int64, error) {
			n, sizes, err := req.Contexts.Encode(out)
			w.total, w.sizes = n, sizes
			return n, err
		}
		return f
	}
	data := req.BindingContext
	if data == nil {
		data = []byte(f.empty)
	}
	w.total = int64(len(data))
	return f
}

// contextSizes logs a binding context file past the limit at WARN, once
// per hook and binding for the runner's life: a hook whose contexts carry
// large snapshots would otherwise log it on every run.
type contextSizes struct {
	limit  int64
	log    *slog.Logger
	mu     sync.Mutex
	warned map[string]bool // hook path + "\x00" + binding
}

func newContextSizes(limit int64, log *slog.Logger) *contextSizes {
	if limit == 0 {
		limit = DefaultContextWarnBytes
	}
	return &contextSizes{limit: limit, log: log, warned: map[string]bool{}}
}

// check warns when the run's file passed the limit, naming the binding
// whose contexts took the most of it.
func (c *contextSizes) check(req Request, w contextWritten) {
	if c.limit < 0 || w.total <= c.limit {
		return
	}
	binding, bytes := w.sizes.Largest()
	key := req.Hook.Path + "\x00" + binding
	c.mu.Lock()
	seen := c.warned[key]
	c.warned[key] = true
	c.mu.Unlock()
	if seen {
		return
	}
	log := req.Logger
	if log == nil {
		log = c.log
	}
	log.Warn("binding context file is large: each context carries its snapshots; putting the binding in a group "+
		"(group: NAME) makes merged runs one Group context with the snapshots once",
		"hook", req.Hook.Name, "binding", binding, "bytes", w.total, "bindingBytes", bytes, "contexts", len(req.Contexts),
		"limit", c.limit)
}
