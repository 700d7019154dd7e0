package moduleobjects

import (
	"log/slog"
	"sort"
	"time"

	"github.com/addon-actors/addon-operator/actors/step"
	"github.com/addon-actors/addon-operator/moduleobject"
)

// MinInterval is the least time between two status writes of one object.
const MinInterval = time.Second

// RetryDelay is when a failed write is tried again.
const RetryDelay = time.Second

// object is what the core knows of one Module object.
type object struct {
	// exists: the object is on the apiserver (listed, or created by us).
	exists bool
	gen    int64
	// written is its status as the apiserver has it, nil when none.
	written *moduleobject.Status
	want    moduleobject.Status
	// in is the module's last input; nil until one was published, and
	// after the module left the board.
	in        *moduleobject.Input
	lastWrite time.Time
	inflight  bool
	armed     bool
	// asks are its reconcile-at and reset-at annotations (annotations.go).
	asks
	// owner is the namespace of the operator whose object this is, when
	// it is another's: this operator leaves it alone.
	owner string
}

// Core decides what to write to the Module objects.
type Core struct {
	objects   map[string]*object
	leading   bool
	converged bool
	// blocked: a module holds the first converge up (see eager).
	blocked bool
	// later are the Normal Events that wait for eager.
	later []Effect
}

// NewCore returns a core that does not lead yet.
func NewCore() *Core { return &Core{objects: map[string]*object{}} }

// Step takes one event and returns the effects to carry out, in order.
func (c *Core) Step(ev Event, env Env) []Effect {
	switch e := ev.(type) {
	case Published:
		return c.published(e, env)
	case Leading:
		return append(c.lead(e, env), c.askAll(env)...)
	case NotLeading:
		c.leading = false
		return nil
	case Tick:
		return c.tick(e, env)
	case Written:
		return c.written(e, env)
	case WriteFailed:
		return c.failed(e)
	case Deleted:
		delete(c.objects, e.Name)
		return nil
	case Annotated:
		return c.annotated(e, env)
	case RunAsked:
		return c.runAsked(e, env)
	default:
		panic("moduleobjects: unknown event " + typeName(ev))
	}
}

func (c *Core) obj(name string) *object {
	o, ok := c.objects[name]
	if !ok {
		o = &object{gen: 1}
		c.objects[name] = o
	}
	return o
}

// published computes each module's status and Events; objects of modules
// no longer on the board are deleted once the first converge is done (a
// module leaves the board after its dir is gone and its release purged).
func (c *Core) published(e Published, env Env) []Effect {
	c.converged = e.Converged
	seen := map[string]bool{}
	var evs []EmitEvent
	var asked []Effect
	for _, in := range e.Inputs {
		seen[in.Name] = true
		o := c.obj(in.Name)
		if c.leading && o.owner == "" {
			for _, ev := range moduleobject.Events(o.in, in) {
				evs = append(evs, EmitEvent{Name: in.Name, Event: ev})
			}
		}
		o.in = &in
		o.compute(in, env.Now)
		asked = append(asked, c.ask(in.Name, env)...)
	}
	c.blocked = c.anyBlocked()
	out := c.events(evs)
	for _, name := range c.names() {
		if !seen[name] {
			c.objects[name].in = nil
		}
		out = append(out, c.decide(name, env)...)
	}
	return append(out, asked...)
}

// anyBlocked: a module needs attention or waits for its workloads, which
// holds the converge up.
func (c *Core) anyBlocked() bool {
	for _, o := range c.objects {
		if o.in != nil && attention(o.want.Phase) {
			return true
		}
	}
	return false
}

func attention(p moduleobject.Phase) bool {
	switch p {
	case moduleobject.Retrying, moduleobject.Stalled, moduleobject.Unseen, moduleobject.WaitingForReadiness:
		return true
	}
	return false
}

// eager: everything is written now: the first converge is done, or a
// module holds it up (a person may be looking).
func (c *Core) eager() bool { return c.converged || c.blocked }

// events are the effects of the modules' Events: until eager, a Normal one
// waits (a cold start's "installed" Events never compete with the
// converge), a Warning goes at once.
func (c *Core) events(evs []EmitEvent) []Effect {
	var out []Effect
	if c.eager() {
		out, c.later = c.later, nil
	}
	for _, e := range evs {
		if !c.eager() && e.Event.Type == moduleobject.Normal {
			c.later = append(c.later, e)
			continue
		}
		out = append(out, e)
	}
	return out
}

// base is the status the next one keeps its transition times from.
func (o *object) base() moduleobject.Status {
	if o.written != nil {
		return *o.written
	}
	return o.want
}

func (c *Core) names() []string {
	out := make([]string, 0, len(c.objects))
	for name := range c.objects {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

func (c *Core) lead(e Leading, env Env) []Effect {
	c.leading = true
	for name, ex := range e.Existing {
		o := c.obj(name)
		o.exists, o.gen, o.written = true, ex.Generation, ex.Status
		o.takeHandled(ex.Status)
		if o.in != nil {
			o.compute(*o.in, env.Now)
		}
	}
	var out []Effect
	for _, name := range c.names() {
		out = append(out, c.decide(name, env)...)
	}
	return out
}

func (c *Core) tick(e Tick, env Env) []Effect {
	o, ok := c.objects[e.Name]
	if !ok {
		return nil
	}
	o.armed = false
	return append(c.decide(e.Name, env), c.ask(e.Name, env)...)
}

func (c *Core) written(e Written, env Env) []Effect {
	o := c.obj(e.Name)
	st := e.Status
	o.exists, o.inflight, o.gen, o.written, o.lastWrite = true, false, e.Generation, &st, env.Now
	return c.decide(e.Name, env)
}

func (c *Core) failed(e WriteFailed) []Effect {
	o, ok := c.objects[e.Name]
	if !ok {
		return nil
	}
	o.inflight = false
	if e.Owner != "" {
		o.owner = e.Owner
		return []Effect{Log(step.At(slog.LevelWarn, "module object belongs to another operator; left to it",
			"object", e.Name, "owner", e.Owner))}
	}
	if e.Missing {
		o.exists, o.written = false, nil
	}
	out := []Effect{Log(step.At(slog.LevelWarn, "module object not written, retrying", "object", e.Name, "op", e.Op,
		"err", e.Err, "in", RetryDelay))}
	if !o.armed {
		o.armed = true
		out = append(out, ArmTimer{Name: e.Name, After: RetryDelay})
	}
	return out
}
