//go:build !unix

package main

import "time"

// cpuTime is unavailable on this platform; the report then shows wall time only.
func cpuTime() time.Duration { return 0 }
