package main

import (
	"fmt"
	"reflect"
	"testing"
)

// A module's place in the fixture, module i of n: -requires K makes the
// first K modules roots (-1) and has every other module require one of
// them, round-robin (0: no root, no module.yaml); -weights K spreads the
// modules over K weights of equal size, in module order (0: one weight per
// module).
func TestModulePlaces(t *testing.T) {
	requires := func(k int) func(i, n int) int { return func(i, _ int) int { return requiredRoot(i, k) } }
	weights := func(k int) func(i, n int) int { return func(i, n int) int { return weightOf(i, n, k) } }
	cases := []struct {
		flag  string
		k, n  int
		place func(k int) func(i, n int) int
		want  []int
	}{
		{"requires", 0, 3, requires, []int{-1, -1, -1}},
		{"requires", 1, 5, requires, []int{-1, 0, 0, 0, 0}},
		{"requires", 3, 7, requires, []int{-1, -1, -1, 0, 1, 2, 0}},
		{"requires", 4, 2, requires, []int{-1, -1}},
		{"weights", 0, 4, weights, []int{0, 1, 2, 3}},
		{"weights", 3, 6, weights, []int{10, 10, 20, 20, 30, 30}},
		{"weights", 1, 4, weights, []int{10, 10, 10, 10}},
		{"weights", 3, 3, weights, []int{10, 20, 30}},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s=%d,n=%d", tc.flag, tc.k, tc.n), func(t *testing.T) {
			place := tc.place(tc.k)
			got := make([]int, tc.n)
			for i := range got {
				got[i] = place(i, tc.n)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%v, want %v", got, tc.want)
			}
		})
	}
}
