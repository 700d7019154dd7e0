package image

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// debianMirrors are the apt lines of the base image: the host's Debian
// mirror for suite and suite-updates, and its security mirror when it has
// one, so that the base sees the packages the official image would.
func debianMirrors(suite string) ([]string, error) {
	files, _ := filepath.Glob("/etc/apt/sources.list.d/*")
	files = append([]string{"/etc/apt/sources.list"}, files...)
	var main, security string
	for _, file := range files {
		if !strings.HasSuffix(file, ".list") && !strings.HasSuffix(file, ".sources") {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, src := range parseSources(string(data), strings.HasSuffix(file, ".sources")) {
			switch {
			case !strings.Contains(src.uri, "debian"):
			case strings.HasSuffix(src.suite, "-security") && security == "":
				security = src.uri
			case !strings.Contains(src.suite, "-") && main == "":
				main = src.uri
			}
		}
	}
	if main == "" {
		return nil, fmt.Errorf("no Debian mirror in /etc/apt/sources.list or /etc/apt/sources.list.d")
	}
	lines := []string{"deb " + main + " " + suite + " main", "deb " + main + " " + suite + "-updates main"}
	if security != "" {
		lines = append(lines, "deb "+security+" "+suite+"-security main")
	}
	return lines, nil
}

// aptSource is one URI and suite of a binary package source.
type aptSource struct{ uri, suite string }

// parseSources reads one-line ("deb URI SUITE ...") or deb822 (URIs:,
// Suites:, Types:, Enabled:) sources.
func parseSources(text string, deb822 bool) []aptSource {
	var out []aptSource
	if !deb822 {
		for _, line := range strings.Split(text, "\n") {
			if i := strings.Index(line, "["); i >= 0 { // deb [options] URI SUITE
				if j := strings.Index(line[i:], "]"); j >= 0 {
					line = line[:i] + line[i+j+1:]
				}
			}
			if f := strings.Fields(line); len(f) >= 3 && f[0] == "deb" {
				out = append(out, aptSource{f[1], f[2]})
			}
		}
		return out
	}
	for _, stanza := range strings.Split(text, "\n\n") {
		fields := map[string][]string{}
		sc := bufio.NewScanner(strings.NewReader(stanza))
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && !strings.HasPrefix(k, "#") {
				fields[strings.ToLower(strings.TrimSpace(k))] = strings.Fields(v)
			}
		}
		if !slices.Contains(fields["types"], "deb") || slices.Contains(fields["enabled"], "no") {
			continue
		}
		for _, uri := range fields["uris"] {
			for _, suite := range fields["suites"] {
				out = append(out, aptSource{uri, suite})
			}
		}
	}
	return out
}
