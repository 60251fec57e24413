//go:build !race

package main

// raceEnabled reports whether the tests run under the race detector (keep
// in sync with race_enabled_test.go).
const raceEnabled = false
