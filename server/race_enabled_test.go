//go:build race

package server

// raceEnabled reports whether the tests run under the race detector, which
// slows the recognizer about tenfold; the heaviest end-to-end tests skip
// then (keep in sync with race_disabled_test.go).
const raceEnabled = true
