// Package httpapi is the operator's HTTP port: /healthz, /readyz (200 once
// the first converge is done), /metrics (the operator's own registry),
// /metrics/hooks, and /queue (a text table, or JSON with ?format=json).
// Values are never served here, nor a hook's output: an error or a status
// shows its first line only (PublicText); the debug socket has the rest.
// A Guard (ADDON_OPERATOR_HTTP_AUTH) may wrap all but the probes.
package httpapi
