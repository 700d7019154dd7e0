package mask

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// Bytes is the mask of b: "(N bytes, sha256:abcd1234)".
func Bytes(b []byte) string {
	sum := sha256.Sum256(b)
	return fmt.Sprintf("(%d bytes, sha256:%s)", len(b), hex.EncodeToString(sum[:4]))
}

// String is the mask of s's bytes.
func String(s string) string { return Bytes([]byte(s)) }

// Value is the mask of a decoded JSON value: a string's bytes, anything
// else's JSON encoding.
func Value(v any) string {
	if s, ok := v.(string); ok {
		return String(s)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		raw = []byte(fmt.Sprint(v))
	}
	return Bytes(raw)
}

// Base64 is the mask of the bytes a Secret's data value encodes; a value
// that is not base64 is masked as it is.
func Base64(v any) string {
	s, ok := v.(string)
	if !ok {
		return Value(v)
	}
	decoded, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return String(s)
	}
	return Bytes(decoded)
}
