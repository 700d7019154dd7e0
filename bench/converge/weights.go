package main

import "fmt"

// weightOf is the dir prefix of module i of n: its own number when
// weights is 0 (every module its own weight, one by one), else one of
// weights numbers (10, 20, ...) shared by groups of equal size.
func weightOf(i, n, weights int) int {
	if weights <= 0 || n == 0 {
		return i
	}
	return (i*weights/n + 1) * 10
}

// weightsText describes the fixture's weight groups.
func weightsText(n, weights int) string {
	if weights <= 0 {
		return "one per module"
	}
	return fmt.Sprintf("%d groups of about %d modules", weights, (n+weights-1)/weights)
}
