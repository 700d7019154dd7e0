// Package mask hides sensitive values in what the operator prints or
// serves (plan, drift reports, module why, the debug socket's values),
// never in what hooks and helm are given.
//
// A masked value reads "(N bytes, sha256:abcd1234)": its length and the
// first 8 hex digits of its SHA-256. The same value always gives the same
// mask, so a diff still shows that a value changed, and which values are
// equal, without showing any of them.
//
// What is sensitive:
//   - the data and stringData of a Secret (v1); data is base64, so its
//     decoded bytes are measured and hashed, and a stringData value masks as
//     the same value in data would;
//   - values at the Paths a module's OpenAPI schemas mark `format: password`
//     (collected by package schema), and every string in a manifest or a
//     report that is, or contains, one of those values (Secrets);
//   - in drift reports, where the live side is whatever someone wrote: also
//     a ConfigMap's data and binaryData, and every env[].value of a pod
//     template (Field).
//
// Everything here is pure: documents in, masked copies out; the inputs are
// never changed.
package mask
