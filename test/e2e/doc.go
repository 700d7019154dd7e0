// Package e2e runs the built addon-operator binary against the real
// kube-apiserver of test/cluster, as a user runs it: a modules directory,
// environment variables, the HTTP port and the process's exit code.
//
// The operator inherits the test process's environment (scenario.Launch.Env
// starts from os.Environ(); a test's own settings come last and win), so
// setting ADDON_OPERATOR_PARALLEL_MODULE_RUNS for go test runs every
// operator with parallel module runs, except in the tests that set the
// variable themselves:
//
//	ADDON_OPERATOR_PARALLEL_MODULE_RUNS=8 test/cluster/testcluster exec /tmp/cluster -- go test ./test/e2e -count=1
package e2e
