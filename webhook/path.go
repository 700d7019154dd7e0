package webhook

import "strings"

// AdmissionPath is the URL path of admission binding name of owner.
func AdmissionPath(owner, name string) string {
	return "/" + SafeURLString(owner) + "/" + SafeURLString(name)
}

// ConversionPath is the URL path of a CRD's conversion.
func ConversionPath(crdName string) string { return "/" + crdName }

// SafeURLString makes a binding name a URL path segment as shell-operator
// does: a '-' before each capital letter, lower case, anything outside
// [a-z0-9-/] becomes '-', and runs of '-' collapse to one.
// "private-repo-policy.example.com" → "private-repo-policy-example-com".
func SafeURLString(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			writeDash(&b)
			b.WriteRune(r - 'A' + 'a')
			continue
		}
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '/' {
			b.WriteRune(r)
			continue
		}
		writeDash(&b)
	}
	return b.String()
}

// writeDash appends '-' unless the string already ends with one.
func writeDash(b *strings.Builder) {
	if s := b.String(); !strings.HasSuffix(s, "-") {
		b.WriteByte('-')
	}
}
