package config

import "testing"

// The echo of an own write is dropped whichever of the writer's answer and
// the watch's report comes first, and a concurrent edit is never dropped.
func TestOwnWrites(t *testing.T) {
	type step struct {
		report string   // a watch report of this version, or
		answer *Written // the writer's answer
		want   bool     // isEcho for a report; news for an answer
	}
	wrote := func(rv string) *Written { return &Written{Changed: true, ResourceVersion: rv} }
	cases := []struct {
		name    string
		patches int
		steps   []step
	}{
		{"answer first, then its echo", 1, []step{{answer: wrote("5"), want: true}, {report: "5", want: true}}},
		{"echo first: already applied", 1, []step{{report: "5"}, {answer: wrote("5"), want: false}, {report: "6"}}},
		{"edit before the write is applied as it comes", 1, []step{{report: "4"}, {answer: wrote("5"), want: true}, {report: "5", want: true}}},
		{"edit after the echo is parsed", 1, []step{{answer: wrote("5"), want: true}, {report: "5", want: true}, {report: "6"}}},
		{"echo and a later edit before the answer", 1, []step{{report: "5"}, {report: "6"}, {answer: wrote("5"), want: false}, {report: "7"}}},
		{"nothing written", 1, []step{{answer: &Written{}}, {report: "5"}}},
		{"echo skipped by a relist is forgotten", 1, []step{{answer: wrote("5"), want: true}, {report: "9"}, {report: "5"}}},
		{"two patches in flight", 2, []step{{report: "5"}, {answer: wrote("5")}, {answer: wrote("6"), want: true}, {report: "6", want: true}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := newOwnWrites()
			for range c.patches {
				o.sent()
			}
			for i, s := range c.steps {
				var got bool
				if s.answer != nil {
					got = o.answered(*s.answer)
				} else {
					got = o.isEcho(s.report)
				}
				if got != s.want {
					t.Fatalf("step %d %+v: got %v", i, s, got)
				}
			}
		})
	}
}
