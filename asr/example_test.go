package asr_test

import (
	"fmt"

	"github.com/sottolabs/sotto/asr"
)

// Drivers lists the transcription drivers compiled in; the pure-Go
// recognizer registers as "go", the Whisper engine as "whisper".
func ExampleDrivers() {
	fmt.Println(asr.Drivers())
	// Output: [go whisper]
}
