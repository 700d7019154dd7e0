package values

import (
	"errors"
	"testing"
)

func TestMerge(t *testing.T) {
	low := map[string]any{"a": map[string]any{"x": 1.0, "y": []any{1.0, 2.0}}, "b": "low", "c": map[string]any{"k": 1.0}}
	high := map[string]any{"a": map[string]any{"y": []any{3.0}, "z": true}, "b": nil, "c": "scalar"}
	got := Merge(low, nil, high)
	want := map[string]any{"a": map[string]any{"x": 1.0, "y": []any{3.0}, "z": true}, "b": nil, "c": "scalar"}
	if !Equal(got, want) {
		t.Fatalf("Merge = %v, want %v", got, want)
	}
	got["a"].(map[string]any)["y"].([]any)[0] = "changed"
	if high["a"].(map[string]any)["y"].([]any)[0] != 3.0 {
		t.Error("Merge result shares a list with its input")
	}
	if low["a"].(map[string]any)["z"] != nil {
		t.Error("Merge changed a lower layer")
	}
}

func TestNormalize(t *testing.T) {
	got, err := Normalize(map[string]any{"i": 3, "l": []any{int64(4), float32(0.5)}, "s": struct {
		A int `json:"a"`
	}{A: 1}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"i": 3.0, "l": []any{4.0, 0.5}, "s": map[string]any{"a": 1.0}}
	if !Equal(got, want) {
		t.Errorf("Normalize = %#v", got)
	}
	if _, err := Normalize(map[string]any{"ch": make(chan int)}); !errors.Is(err, ErrNotJSON) {
		t.Errorf("Normalize(chan) err = %v, want ErrNotJSON", err)
	}
}

func TestChecksumIgnoresKeyOrder(t *testing.T) {
	a := map[string]any{"x": 1.0, "y": map[string]any{"b": true, "a": "s"}}
	b := map[string]any{"y": map[string]any{"a": "s", "b": true}, "x": 1.0}
	if Checksum(a) != Checksum(b) {
		t.Error("checksums differ for equal values")
	}
	b["x"] = 2.0
	if Checksum(a) == Checksum(b) {
		t.Error("checksums equal for different values")
	}
}
