package manifestdiff

import (
	"fmt"
	"strings"
)

// contextLines is how many unchanged lines a hunk shows around a change, as
// diff -u does.
const contextLines = 3

// edit is one line of an edit script: ' ' kept, '-' removed, '+' added.
type edit struct {
	op   byte
	text string
}

// Unified returns a unified diff of a and b (texts split into lines) under
// the headers "--- from" and "+++ to"; "" when they are equal.
func Unified(a, b, from, to string) string {
	if a == b {
		return ""
	}
	script := editScript(splitLines(a), splitLines(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks(script) {
		writeHunk(&out, script, h)
	}
	return out.String()
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// editScript is the shortest edit script from a to b by the longest common
// subsequence (manifests are small: quadratic is fine).
func editScript(a, b []string) []edit {
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var script []edit
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			script = append(script, edit{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			script = append(script, edit{'-', a[i]})
			i++
		default:
			script = append(script, edit{'+', b[j]})
			j++
		}
	}
	return script
}

// span is a hunk: a range of the edit script, end exclusive.
type span struct{ start, end int }

// hunks groups the changes of the script with their context; changes
// closer than twice the context share a hunk.
func hunks(script []edit) []span {
	var out []span
	for k, e := range script {
		if e.op == ' ' {
			continue
		}
		start, end := max(k-contextLines, 0), min(k+1+contextLines, len(script))
		if n := len(out); n > 0 && start <= out[n-1].end {
			out[n-1].end = end
			continue
		}
		out = append(out, span{start, end})
	}
	return out
}

// writeHunk writes "@@ -l,n +l,n @@" and the hunk's lines.
func writeHunk(out *strings.Builder, script []edit, h span) {
	aLine, bLine := 1, 1
	for _, e := range script[:h.start] {
		if e.op != '+' {
			aLine++
		}
		if e.op != '-' {
			bLine++
		}
	}
	aCount, bCount := 0, 0
	for _, e := range script[h.start:h.end] {
		if e.op != '+' {
			aCount++
		}
		if e.op != '-' {
			bCount++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(aLine, aCount), rangeOf(bLine, bCount))
	for _, e := range script[h.start:h.end] {
		fmt.Fprintf(out, "%c%s\n", e.op, e.text)
	}
}

// rangeOf prints a hunk range as diff -u does: an empty range names the
// line before it.
func rangeOf(line, count int) string {
	if count == 0 {
		return fmt.Sprintf("%d,0", line-1)
	}
	if count == 1 {
		return fmt.Sprintf("%d", line)
	}
	return fmt.Sprintf("%d,%d", line, count)
}
