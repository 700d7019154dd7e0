package main

import (
	"reflect"
	"testing"
)

// -weights K spreads the modules over K weights of equal size, in module
// order; 0 keeps one weight per module.
func TestWeightOf(t *testing.T) {
	cases := []struct {
		n, weights int
		want       []int
	}{
		{n: 4, weights: 0, want: []int{0, 1, 2, 3}},
		{n: 6, weights: 3, want: []int{10, 10, 20, 20, 30, 30}},
		{n: 4, weights: 1, want: []int{10, 10, 10, 10}},
		{n: 3, weights: 3, want: []int{10, 20, 30}},
	}
	for _, tc := range cases {
		var got []int
		for i := range tc.n {
			got = append(got, weightOf(i, tc.n, tc.weights))
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("n %d weights %d: %v, want %v", tc.n, tc.weights, got, tc.want)
		}
	}
}
