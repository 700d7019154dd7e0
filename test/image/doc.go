// Package image builds deploy/Dockerfile into a local image the way a user
// does, with `podman build --pull=never`, on a machine that reaches no
// container registry, and runs containers from it for the tests.
//
// The two names the Dockerfile starts FROM are made locally when they are
// missing: debian:bookworm-slim is a minbase Debian made with mmdebstrap
// from the host's apt mirror and imported with `podman import`; golang:1.26
// is that Debian plus the host's Go toolchain at /usr/local/go and the
// host's CA bundle (HTTPS leaves this machine through an intercepting CA).
// A name that already exists and was not made here (an image a user pulled)
// is used as it is.
//
// The build mounts the host's Go module and build caches into the Go build
// stages (a run with --target for each), then builds the whole file with no
// mounts: those stages come from the layer cache, and the image holds
// nothing of the mounts. Ensure builds the test cluster's servers beside
// the base images and runs the Go stages after them, so that the kubectl
// stage finds kubectl's packages in the host's build cache. Everything is
// cached by a key of its inputs: the Debian tarball in the user cache dir (~/.cache/addon-operator/image), the
// image in podman's storage tagged with the key of the build context (as
// .dockerignore leaves it) and the base images. Concurrent callers wait on
// a file lock. Containers run with runc and ulimits within the host's hard
// limits, through a containers.conf of this package's own.
package image
