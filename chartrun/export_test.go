package chartrun

// OnIndexChange tells f the release of every change that the watch of the
// start's index sees.
func OnIndexChange(r *Releaser, f func(release string)) {
	r.index.mu.Lock()
	defer r.index.mu.Unlock()
	r.index.changed = f
}
