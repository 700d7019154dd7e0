package webhook

import "testing"

func TestSafeURLString(t *testing.T) {
	for in, want := range map[string]string{
		"private-repo-policy.example.com": "private-repo-policy-example-com",
		"MyHook":                          "-my-hook",
		"a..b__c":                         "a-b-c",
		"v1/Deploy":                       "v1/-deploy",
		"ok-name":                         "ok-name",
	} {
		if got := SafeURLString(in); got != want {
			t.Errorf("SafeURLString(%q) = %q, want %q", in, got, want)
		}
	}
	if p := AdmissionPath("global", "deny.example.com"); p != "/global/deny-example-com" {
		t.Errorf("AdmissionPath = %q", p)
	}
	if p := ConversionPath("crontabs.stable.example.com"); p != "/crontabs.stable.example.com" {
		t.Errorf("ConversionPath = %q", p)
	}
}
