package chartrun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/chart"
)

// checksumLen keeps the label value within Kubernetes' 63 characters.
const checksumLen = 32

// Checksum identifies what a release is made from: the chart's templates,
// metadata and default values, and the values given. Two runs with the same
// checksum render the same manifests (templates that look up cluster state
// aside, which the absent-resources check covers).
func Checksum(c *chart.Chart, values map[string]any) (string, error) {
	h := sha256.New()
	files := append([]*chart.File{}, c.Templates...)
	for _, f := range c.Raw {
		if f.Name == "Chart.yaml" || f.Name == "values.yaml" || f.Name == "values.schema.json" {
			files = append(files, f)
		}
	}
	for _, f := range c.Files {
		if !moduleOnly(f.Name) {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	for _, f := range files {
		fmt.Fprintf(h, "%s\x00%d\x00", f.Name, len(f.Data))
		h.Write(f.Data)
	}
	vals, err := json.Marshal(values)
	if err != nil {
		return "", fmt.Errorf("checksum of values: %w", err)
	}
	h.Write(vals)
	for _, dep := range c.Dependencies() {
		sum, err := Checksum(dep, nil)
		if err != nil {
			return "", err
		}
		h.Write([]byte(sum))
	}
	return hex.EncodeToString(h.Sum(nil))[:checksumLen], nil
}

// moduleOnly tells the files of a module dir that helm loads with the chart
// but that are the operator's, not the chart's: a change to a hook must not
// upgrade the release.
func moduleOnly(name string) bool {
	return name == "enabled" || strings.HasPrefix(name, "hooks/") || strings.HasPrefix(name, "openapi/")
}
