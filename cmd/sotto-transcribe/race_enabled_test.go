//go:build race

package main

// raceEnabled reports whether the tests run under the race detector, which
// slows the recognizer about tenfold (keep in sync with
// race_disabled_test.go).
const raceEnabled = true
