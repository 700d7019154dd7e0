package chartrun

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
)

// releaseSecrets is helm's Secrets storage driver with its writes made
// here: the same Secret, byte for byte (name, type, labels, and the release
// as base64 of gzip at best compression of its JSON), so that helm, the
// original operator and this one read each other's releases. helm makes a
// new gzip writer for every write (its compressor's tables are most of an
// install's allocations: two writes per install); these are reused. Reads
// and deletes are helm's own, but for the one a run knows the answer to
// (see expectAbsent).
type releaseSecrets struct {
	*driver.Secrets
	impl    corev1client.SecretInterface
	writers *gzipWriters
	now     func() time.Time
	// absent is a release known to have no Secret, for one Query.
	absent atomic.Pointer[string]
}

// expectAbsent tells the driver that release has no Secret: the releaser's
// start index says so, kept current by its watch. helm's install asks for
// the release's history first, to refuse a name in use; the first such
// query is answered here, sparing a LIST of Secrets that the apiserver
// serves by reading every Secret of the namespace from etcd (in a cold
// converge, n of them for each of n installs). Should someone have made the
// release within the watch's latency, helm's create of its first revision
// fails (ErrReleaseExists) before any object is touched, and the run is
// retried with the history read.
func (s *releaseSecrets) expectAbsent(release string) { s.absent.Store(&release) }

// Query lists the release revisions matching labels; the release expected
// absent is not found, once, without a request.
func (s *releaseSecrets) Query(labels map[string]string) ([]*release.Release, error) {
	if name := s.absent.Swap(nil); name != nil && len(labels) == 2 && labels["name"] == *name && labels["owner"] == "helm" {
		return nil, driver.ErrReleaseNotFound
	}
	return s.Secrets.Query(labels)
}

func newReleaseSecrets(impl corev1client.SecretInterface, writers *gzipWriters, now func() time.Time) *releaseSecrets {
	return &releaseSecrets{Secrets: driver.NewSecrets(impl), impl: impl, writers: writers, now: now}
}

// Create stores a new release revision; ErrReleaseExists when its Secret
// exists.
func (s *releaseSecrets) Create(key string, rls *release.Release) error {
	obj, err := s.secret(key, rls, "createdAt")
	if err != nil {
		return fmt.Errorf("create: failed to encode release %q: %w", rls.Name, err)
	}
	if _, err := s.impl.Create(context.Background(), obj, metav1.CreateOptions{}); err != nil {
		if apierrors.IsAlreadyExists(err) {
			return driver.ErrReleaseExists
		}
		return fmt.Errorf("create: failed to create: %w", err)
	}
	return nil
}

// Update writes a release revision over its Secret.
func (s *releaseSecrets) Update(key string, rls *release.Release) error {
	obj, err := s.secret(key, rls, "modifiedAt")
	if err != nil {
		return fmt.Errorf("update: failed to encode release %q: %w", rls.Name, err)
	}
	if _, err := s.impl.Update(context.Background(), obj, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update: failed to update: %w", err)
	}
	return nil
}

// secret is the Secret helm stores a revision in: the release's own
// labels, the time label of the write (createdAt or modifiedAt, Unix
// seconds), and helm's name, owner, status and version over them.
func (s *releaseSecrets) secret(key string, rls *release.Release, timeLabel string) (*corev1.Secret, error) {
	data, err := s.writers.encode(rls)
	if err != nil {
		return nil, err
	}
	labels := make(map[string]string, len(rls.Labels)+5)
	for k, v := range rls.Labels {
		labels[k] = v
	}
	labels[timeLabel] = strconv.FormatInt(s.now().Unix(), 10)
	labels["name"] = rls.Name
	labels["owner"] = "helm"
	labels["status"] = rls.Info.Status.String()
	labels["version"] = strconv.Itoa(rls.Version)
	return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: key, Labels: labels},
		Type: "helm.sh/release.v1", Data: map[string][]byte{"release": data}}, nil
}

// gzipWriters are reusable gzip writers at helm's level; the zero value
// is ready.
type gzipWriters struct{ pool sync.Pool }

// encode is helm's encoding of a release: base64 of the gzip of its JSON.
func (g *gzipWriters) encode(rls *release.Release) ([]byte, error) {
	js, err := json.Marshal(rls)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	w, ok := g.pool.Get().(*gzip.Writer)
	if !ok {
		w, _ = gzip.NewWriterLevel(nil, gzip.BestCompression) // a valid level: no error
	}
	defer g.pool.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(js); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	out := make([]byte, base64.StdEncoding.EncodedLen(buf.Len()))
	base64.StdEncoding.Encode(out, buf.Bytes())
	return out, nil
}
