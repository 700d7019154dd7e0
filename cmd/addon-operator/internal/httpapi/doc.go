// Package httpapi is the operator's HTTP port: /healthz, /readyz (200 once
// the first converge is done), /metrics (the operator's own registry), and
// /queue (a text table, or JSON with ?format=json). Values are never served
// here; they are on the debug socket only.
package httpapi
