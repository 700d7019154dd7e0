// Package valuestest holds what the tests of the values library and of
// hookexec share, as net/http/httptest does for net/http: a value written
// as JSON text and a JSON patch decoded, failing the test on an error.
package valuestest
