package config

// ownWrites recognises the watch's reports of the config actor's own
// writes by their resourceVersion, so that an echo is dropped without a
// parse. The watch reports versions in order, and the writer's answer and
// the watch's report of one write race to the mailbox: a version the watch
// reported before the writer answered is already applied (and so is every
// later one), else the write is applied when the writer answers and its
// report is dropped when it comes.
type ownWrites struct {
	pending int             // patches with the writer, not answered yet
	seen    map[string]bool // versions the watch reported while patches were pending
	echoes  map[string]bool // versions written and applied, whose report is due
}

func newOwnWrites() ownWrites {
	return ownWrites{seen: map[string]bool{}, echoes: map[string]bool{}}
}

// sent notes a patch handed to the writer.
func (o *ownWrites) sent() { o.pending++ }

// isEcho tells whether a watch report is the echo of a write already
// applied. Any other report means the echoes still due were skipped by the
// watch (a relist after an outage): they are forgotten.
func (o *ownWrites) isEcho(resourceVersion string) bool {
	if o.echoes[resourceVersion] {
		delete(o.echoes, resourceVersion)
		return true
	}
	clear(o.echoes)
	if o.pending > 0 {
		o.seen[resourceVersion] = true
	}
	return false
}

// answered notes the writer's answer and tells whether what it wrote is
// news to apply: false when nothing was written or when the watch has
// already reported that version.
func (o *ownWrites) answered(w Written) bool {
	o.pending--
	news := w.Changed && !o.seen[w.ResourceVersion]
	if news {
		o.echoes[w.ResourceVersion] = true
	}
	if o.pending == 0 {
		clear(o.seen)
	}
	return news
}
