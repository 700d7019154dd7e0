package layout

import (
	"sort"
)

// requirementGraph is a list of definitions, by index, with the module
// requirements among them as edges.
type requirementGraph struct {
	names []string
	// requires[i] are the definitions that i requires, ascending, each once.
	requires [][]int
}

func newRequirementGraph(defs []Definition) requirementGraph {
	byName := map[string][]int{}
	for i, d := range defs {
		byName[d.Names.Name] = append(byName[d.Names.Name], i)
	}
	g := requirementGraph{names: make([]string, len(defs)), requires: make([][]int, len(defs))}
	for i, d := range defs {
		g.names[i] = d.Names.Name
		seen := map[int]bool{}
		for _, req := range d.Requirements.Modules {
			if req.Module == d.Names.Name {
				continue // dropped when read; never an edge, not even a cycle
			}
			for _, j := range byName[req.Module] {
				if !seen[j] {
					seen[j] = true
					g.requires[i] = append(g.requires[i], j)
				}
			}
		}
		sort.Ints(g.requires[i])
	}
	return g
}

// stableOrder is Kahn's algorithm taking, each time, the smallest index whose
// requirements are all placed; false when some cannot be placed (a cycle).
// The scan for that index is quadratic, which is nothing next to a few
// hundred modules, and keeps the rule plain.
func (g requirementGraph) stableOrder() ([]int, bool) {
	n := len(g.names)
	waiting := make([]int, n) // requirements of i not placed yet
	requiredBy := make([][]int, n)
	for i, reqs := range g.requires {
		waiting[i] = len(reqs)
		for _, j := range reqs {
			requiredBy[j] = append(requiredBy[j], i)
		}
	}
	placed := make([]bool, n)
	order := make([]int, 0, n)
	for len(order) < n {
		next := -1
		for i := 0; i < n && next < 0; i++ {
			if !placed[i] && waiting[i] == 0 {
				next = i
			}
		}
		if next < 0 {
			return order, false
		}
		placed[next] = true
		order = append(order, next)
		for _, i := range requiredBy[next] {
			waiting[i]--
		}
	}
	return order, true
}

// cycleError names the modules on cycles: those in a strongly connected
// component of more than one module (a module that only requires one on a
// cycle is not on it), with one cycle per component.
func (g requirementGraph) cycleError() *CycleError {
	e := &CycleError{}
	for _, component := range g.components() {
		if len(component) < 2 {
			continue
		}
		for _, i := range component {
			e.Modules = append(e.Modules, g.names[i])
		}
		e.Cycles = append(e.Cycles, g.cycleThrough(component))
	}
	sort.Strings(e.Modules)
	sort.Slice(e.Cycles, func(a, b int) bool { return e.Cycles[a][0] < e.Cycles[b][0] })
	return e
}

// cycleThrough is a shortest cycle within component from its smallest name
// back to it, found breadth-first so that the message stays short.
func (g requirementGraph) cycleThrough(component []int) []string {
	in := map[int]bool{}
	start := component[0]
	for _, i := range component {
		in[i] = true
		if g.names[i] < g.names[start] || (g.names[i] == g.names[start] && i < start) {
			start = i
		}
	}
	parent := map[int]int{start: -1}
	queue := []int{start}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, w := range g.requires[u] {
			if w == start {
				return g.pathBack(parent, u, start)
			}
			if _, seen := parent[w]; in[w] && !seen {
				parent[w] = u
				queue = append(queue, w)
			}
		}
	}
	return nil // not reached: in a component every module reaches every other
}

// pathBack is the names from start to last along parent, then start again.
func (g requirementGraph) pathBack(parent map[int]int, last, start int) []string {
	var rev []string
	for i := last; i >= 0; i = parent[i] {
		rev = append(rev, g.names[i])
	}
	path := make([]string, 0, len(rev)+1)
	for k := len(rev) - 1; k >= 0; k-- {
		path = append(path, rev[k])
	}
	return append(path, g.names[start])
}

// components returns the strongly connected components of g (Tarjan).
func (g requirementGraph) components() [][]int {
	t := tarjan{g: g, index: make([]int, len(g.names)), low: make([]int, len(g.names)), onStack: make([]bool, len(g.names))}
	for i := range t.index {
		t.index[i] = -1
	}
	for i := range g.names {
		if t.index[i] < 0 {
			t.visit(i)
		}
	}
	return t.found
}

type tarjan struct {
	g          requirementGraph
	next       int
	index, low []int
	onStack    []bool
	stack      []int
	found      [][]int
}

// visit recurses as deep as the longest chain of requirements, which is
// bounded by the number of modules.
func (t *tarjan) visit(v int) {
	t.index[v], t.low[v] = t.next, t.next
	t.next++
	t.stack = append(t.stack, v)
	t.onStack[v] = true
	for _, w := range t.g.requires[v] {
		if t.index[w] < 0 {
			t.visit(w)
			t.low[v] = min(t.low[v], t.low[w])
		} else if t.onStack[w] {
			t.low[v] = min(t.low[v], t.index[w])
		}
	}
	if t.low[v] != t.index[v] {
		return
	}
	var component []int
	for {
		w := t.stack[len(t.stack)-1]
		t.stack = t.stack[:len(t.stack)-1]
		t.onStack[w] = false
		component = append(component, w)
		if w == v {
			break
		}
	}
	t.found = append(t.found, component)
}
