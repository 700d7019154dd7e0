package chartrun

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"helm.sh/helm/v3/pkg/release"
	"sigs.k8s.io/yaml"
)

// Maintenance mode at the release (UPSTREAM.md §7), as the original writes
// it. A run in maintenance (Request.Maintenance) renders every object with
// LabelMaintenance and writes the release labelled LabelMaintenance=true,
// once: from then on its runs leave the release as it is, while its latest
// revision says "true". A run out of maintenance writes "false", and its
// objects without the label, so the first run after maintenance upgrades.

// LabelMaintenance is the original's maintenance label: "" on each object
// of a release written in maintenance mode (what admission policies let
// people edit by hand), and on the release "true" or "false".
const LabelMaintenance = "maintenance.deckhouse.io/no-resource-reconciliation"

// keptInMaintenance is the latest revision of a release that a run in
// maintenance leaves as it is: one labelled LabelMaintenance=true, as the
// original checks it (whatever its status). Nil when there is none.
func keptInMaintenance(history []*release.Release) *release.Release {
	if last := latest(history); last != nil && last.Labels[LabelMaintenance] == "true" {
		return last
	}
	return nil
}

// keptResult is a run in maintenance that left the release as it is (none
// for nil: an error).
func keptResult(last *release.Release) Result {
	if last == nil {
		return Result{}
	}
	return Result{Action: Skipped, Revision: last.Version, Checksum: last.Labels[LabelChecksum],
		Reason: fmt.Sprintf("maintenance mode: revision %d is labelled %s=true", last.Version, LabelMaintenance)}
}

// maintenanceLabel is the release's LabelMaintenance value.
func maintenanceLabel(maintenance bool) string { return strconv.FormatBool(maintenance) }

// maintenanceRenderer is helm's post-renderer for a release written in
// maintenance mode: it labels every object (helm's hooks, which helm does
// not post-render, aside).
type maintenanceRenderer struct{}

// Run implements helm's postrender.PostRenderer.
func (maintenanceRenderer) Run(in *bytes.Buffer) (*bytes.Buffer, error) {
	out, err := labelObjects(in.String())
	if err != nil {
		return nil, err
	}
	return bytes.NewBufferString(out), nil
}

// LabelForMaintenance is what the manifests become in a release written in
// maintenance mode: every object labelled LabelMaintenance (for `plan`).
func LabelForMaintenance(manifests string) (string, error) { return labelObjects(manifests) }

// docSeparator is a line that separates YAML documents.
var docSeparator = regexp.MustCompile(`(?m)^---[ \t]*$`)

// labelObjects gives every object of the manifests LabelMaintenance="",
// keeping each document's leading comments ("# Source: …") and order.
func labelObjects(manifests string) (string, error) {
	var b strings.Builder
	for _, doc := range docSeparator.Split(manifests, -1) {
		head, body := splitComments(doc)
		if strings.TrimSpace(body) == "" {
			continue
		}
		labelled, err := labelObject(body)
		if err != nil {
			return "", fmt.Errorf("label for maintenance mode: %s: %w", firstLine(doc), err)
		}
		fmt.Fprintf(&b, "---\n%s%s", head, labelled)
	}
	return b.String(), nil
}

// splitComments splits a document into its leading comment and blank lines
// and the rest.
func splitComments(doc string) (head, body string) {
	rest := strings.TrimLeft(doc, "\n")
	for strings.HasPrefix(rest, "#") {
		line, after, _ := strings.Cut(rest, "\n")
		head += line + "\n"
		rest = strings.TrimLeft(after, "\n")
	}
	return head, rest
}

// labelObject sets LabelMaintenance="" in one object's metadata.labels.
func labelObject(body string) (string, error) {
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(body), &obj); err != nil {
		return "", err
	}
	if obj == nil {
		return "", nil
	}
	meta, _ := obj["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	labels, _ := meta["labels"].(map[string]any)
	if labels == nil {
		labels = map[string]any{}
		meta["labels"] = labels
	}
	labels[LabelMaintenance] = ""
	out, err := yaml.Marshal(obj)
	return string(out), err
}
