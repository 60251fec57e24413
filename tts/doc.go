// Package tts synthesises speech from text.
//
// # Backends
//
// A speech [Driver] registers itself from init. No speech driver is in this
// build yet: the server validates /v1/audio/speech requests and answers 501
// capability_unavailable for models it cannot run.
package tts
