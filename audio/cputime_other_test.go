//go:build !unix

package audio_test

import "time"

// selfCPU is not measured on this platform.
func selfCPU() time.Duration { return 0 }
