// Package asr transcribes speech to text.
//
//	t, err := asr.Transcribe(ctx, a, asr.Options{Language: "en"})
//	for s, err := range asr.Segments(ctx, a, opts) { ... }
//
// # Backends
//
// A transcription [Driver] registers itself from init; [Open] selects one by
// name or by priority. No transcription driver is in this build yet: the
// server answers 501 capability_unavailable for /v1/audio/transcriptions.
package asr
