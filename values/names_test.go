package values

import (
	"errors"
	"strings"
	"testing"
)

func TestParseModuleDir(t *testing.T) {
	cases := []struct {
		dir     string
		want    Names
		wantErr string
	}{
		{dir: "001-some-module", want: Names{Dir: "001-some-module", Order: 1, Ordered: true,
			Name: "some-module", ValuesKey: "someModule", EnabledKey: "someModuleEnabled"}},
		{dir: "simple", want: Names{Dir: "simple", Name: "simple", ValuesKey: "simple", EnabledKey: "simpleEnabled"}},
		{dir: "10-nginx-ingress", want: Names{Dir: "10-nginx-ingress", Order: 10, Ordered: true,
			Name: "nginx-ingress", ValuesKey: "nginxIngress", EnabledKey: "nginxIngressEnabled"}},
		{dir: "020-cert-manager-v2", want: Names{Dir: "020-cert-manager-v2", Order: 20, Ordered: true,
			Name: "cert-manager-v2", ValuesKey: "certManagerV2", EnabledKey: "certManagerV2Enabled"}},
		{dir: "5-k8s-api", want: Names{Dir: "5-k8s-api", Order: 5, Ordered: true,
			Name: "k8s-api", ValuesKey: "k8sApi", EnabledKey: "k8sApiEnabled"}},
		// A leading "digits-" is always the order prefix, even twice over.
		{dir: "01-02-x", wantErr: "starting with a letter"},
		{dir: "mod-001", wantErr: `values key "mod001" reads back as module "mod001"`},
		{dir: "001-mod-1", wantErr: `reads back as module "mod1"`},
		{dir: "001-Some-Module", wantErr: "lower-case ASCII"},
		{dir: "some_module", wantErr: "lower-case ASCII"},
		{dir: "001-modülé", wantErr: "lower-case ASCII"},
		{dir: "001-some--module", wantErr: "lower-case ASCII"},
		{dir: "001-some-module-", wantErr: "lower-case ASCII"},
		{dir: "-some-module", wantErr: "lower-case ASCII"},
		{dir: "001-", wantErr: "empty"},
		{dir: "001", wantErr: "lower-case ASCII"},
		{dir: "1mod", wantErr: "lower-case ASCII"},
		{dir: "001-global", wantErr: "key of the global values"},
		{dir: "002-foo-enabled", wantErr: `enabled key of module "foo"`},
		{dir: "003-" + strings.Repeat("a", 54), wantErr: "longer than 53"},
		{dir: "99999999999999999999999-x", wantErr: "order prefix"},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			got, err := ParseModuleDir(c.dir)
			if c.wantErr != "" {
				if err == nil || !errors.Is(err, ErrInvalidModuleName) || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want ErrInvalidModuleName containing %q", err, c.wantErr)
				}
				if !strings.Contains(err.Error(), c.dir) {
					t.Errorf("error %q does not name the dir", err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, c.want)
			}
			back, err := ModuleNameOf(got.ValuesKey)
			if err != nil || back != got.Name {
				t.Errorf("ModuleNameOf(%q) = %q, %v; want %q", got.ValuesKey, back, err, got.Name)
			}
		})
	}
}

func TestModuleNameOf(t *testing.T) {
	for key, want := range map[string]string{"someModule": "some-module", "a": "a", "certManagerV2": "cert-manager-v2"} {
		if got, err := ModuleNameOf(key); err != nil || got != want {
			t.Errorf("ModuleNameOf(%q) = %q, %v; want %q", key, got, err, want)
		}
	}
	for _, key := range []string{"SomeModule", "some-module", "some_module", "", "global", "fooEnabled", "mod001x2Ü"} {
		if got, err := ModuleNameOf(key); err == nil {
			t.Errorf("ModuleNameOf(%q) = %q, want an error", key, got)
		}
	}
}

func TestModuleKeyOfEnabledKey(t *testing.T) {
	if k, ok := ModuleKeyOfEnabledKey("someModuleEnabled"); !ok || k != "someModule" {
		t.Errorf("got %q, %v", k, ok)
	}
	for _, key := range []string{"Enabled", "someModule", "global", "some-moduleEnabled", "globalEnabled"} {
		if k, ok := ModuleKeyOfEnabledKey(key); ok {
			t.Errorf("ModuleKeyOfEnabledKey(%q) = %q, want not an enabled key", key, k)
		}
	}
}

func TestSortModulesAndCheckUnique(t *testing.T) {
	var modules []Names
	for _, dir := range []string{"zeta", "010-b", "002-c", "alpha", "010-a", "1-d"} {
		n, err := ParseModuleDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		modules = append(modules, n)
	}
	SortModules(modules)
	var got []string
	for _, m := range modules {
		got = append(got, m.Dir)
	}
	want := "1-d 002-c 010-a 010-b alpha zeta"
	if strings.Join(got, " ") != want {
		t.Errorf("order %v, want %s", got, want)
	}
	if err := CheckUnique(modules); err != nil {
		t.Errorf("CheckUnique: %v", err)
	}
	dup, _ := ParseModuleDir("020-alpha")
	err := CheckUnique(append(modules, dup))
	if !errors.Is(err, ErrDuplicateModule) || !strings.Contains(err.Error(), `"alpha" and "020-alpha"`) {
		t.Errorf("CheckUnique = %v, want a duplicate naming both dirs", err)
	}
}
