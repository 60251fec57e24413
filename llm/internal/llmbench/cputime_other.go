//go:build !unix

package main

import "time"

// cpuTime is unavailable here: CPU-time figures read 0.
func cpuTime() time.Duration { return 0 }
