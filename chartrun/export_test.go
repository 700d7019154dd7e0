package chartrun

// OnIndexChange tells f the release of every change that the watch of the
// start's index sees.
func OnIndexChange(r *Releaser, f func(release string)) {
	r.index.mu.Lock()
	defer r.index.mu.Unlock()
	r.index.changed = f
}

// OnObjectChange tells f "namespace/resource/name" of every change that a
// watch of the object index sees.
func OnObjectChange(r *Releaser, f func(object string)) {
	r.objects.mu.Lock()
	defer r.objects.mu.Unlock()
	r.objects.changed = f
}
