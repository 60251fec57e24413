//go:build !race

package server

// raceEnabled reports whether the tests run under the race detector (keep
// in sync with race_enabled_test.go).
const raceEnabled = false
