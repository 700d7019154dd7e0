package chartrun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// checksumLen keeps the label value within Kubernetes' 63 characters.
const checksumLen = 32

// Checksum identifies what a release is made of: the manifests the chart
// renders (as Render returns them) and the values given. A change to a
// module's hooks, or to a template that renders the same, does not change
// it; a template whose output changes every time (randAlphaNum, now) makes
// every run an upgrade, as in the original addon-operator.
func Checksum(manifests string, values map[string]any) (string, error) {
	// encoding/json writes map keys sorted, so equal values hash equal.
	vals, err := json.Marshal(values)
	if err != nil {
		return "", fmt.Errorf("checksum of values: %w", err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00", len(manifests))
	h.Write([]byte(manifests))
	h.Write(vals)
	return hex.EncodeToString(h.Sum(nil))[:checksumLen], nil
}
