package chartrun

import (
	"time"

	"helm.sh/helm/v3/pkg/storage/driver"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

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

// ReleaseStore is the storage driver the releaser's helm actions write
// releases with.
func ReleaseStore(r *Releaser, secrets corev1client.SecretInterface, now func() time.Time) driver.Driver {
	return newReleaseSecrets(secrets, &r.gzips, now)
}

// ExpectAbsent tells a store from ReleaseStore that release has no Secret
// (see releaseSecrets.expectAbsent).
func ExpectAbsent(store driver.Driver, release string) { store.(*releaseSecrets).expectAbsent(release) }

// ReadyWatches counts the list-and-watch followers of waits in progress.
func ReadyWatches(r *Releaser) int { return int(r.readyWatches.Load()) }
