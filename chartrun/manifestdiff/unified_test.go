package manifestdiff

import "testing"

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{name: "equal", a: "x\ny\n", b: "x\ny\n", want: ""},
		{name: "one line changed", a: "a\nb\nc\n", b: "a\nB\nc\n",
			want: "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{name: "added to empty", a: "", b: "a\nb\n",
			want: "--- old\n+++ new\n@@ -0,0 +1,2 @@\n+a\n+b\n"},
		{name: "removed all", a: "a\n", b: "",
			want: "--- old\n+++ new\n@@ -1 +0,0 @@\n-a\n"},
		{name: "context trimmed to three lines",
			a:    "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			b:    "1\n2\n3\n4\n5\nsix\n7\n8\n9\n",
			want: "--- old\n+++ new\n@@ -3,7 +3,7 @@\n 3\n 4\n 5\n-6\n+six\n 7\n 8\n 9\n"},
		{name: "two hunks far apart",
			a:    "a\n1\n2\n3\n4\n5\n6\n7\n8\nz\n",
			b:    "A\n1\n2\n3\n4\n5\n6\n7\n8\nZ\n",
			want: "--- old\n+++ new\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n 3\n@@ -7,4 +7,4 @@\n 6\n 7\n 8\n-z\n+Z\n"},
		{name: "close changes share a hunk",
			a:    "a\n1\n2\nb\n",
			b:    "A\n1\n2\nB\n",
			want: "--- old\n+++ new\n@@ -1,4 +1,4 @@\n-a\n+A\n 1\n 2\n-b\n+B\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Unified(tc.a, tc.b, "old", "new"); got != tc.want {
				t.Errorf("Unified:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}
