// Package kubewatch keeps a watch's list and watch calls going through an
// apiserver outage with a short, capped retry, and makes the outage
// visible: one warning when a watch drops, one when it resumes (with how
// long it was down), a gauge of the watches that are down, and a count of
// the failed calls.
//
// client-go's reflector retries a watch refused by an unreachable apiserver
// by itself, without telling its watch error handler, and with a backoff
// that grows to 30 s (and up to 60 s with its jitter): after an outage of a
// few seconds a watch resumed up to a minute after the apiserver was back,
// silently. A Guard wraps the calls of a ListWatch instead: a transient
// failure (connection refused or reset, timeout, 429, 5xx) is retried
// inside the call, every second at most, so the reflector sees neither the
// error nor a reason to back off; any other failure (a refusal, a gone
// resource version) goes to the reflector as before.
package kubewatch
