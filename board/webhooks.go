package board

// WebhookState is one webhook binding an owner serves, as `module why`
// shows it: Ready once its hook may answer (its Synchronization is done).
type WebhookState struct {
	Kind  string `json:"kind"` // Validating, Mutating or Conversion
	Name  string `json:"name"`
	Hook  string `json:"hook"`
	Path  string `json:"path"`
	Ready bool   `json:"ready"`
	// Kept: the owner is disabled but the CRD's stored objects still need
	// this conversion, so it is served.
	Kept bool `json:"kept,omitempty"`
}

// SetWebhooks publishes the webhooks an owner (a module name, or
// "global") serves; none forgets it (the webhook servers only).
func (b *Board) SetWebhooks(owner string, list []WebhookState) {
	if len(list) == 0 {
		b.webhooks.delete(owner)
	} else {
		b.webhooks.set(owner, list)
	}
	b.notify()
}

// Webhooks are the webhooks owner serves.
func (b *Board) Webhooks(owner string) []WebhookState {
	list, _ := b.webhooks.get(owner)
	return list
}
