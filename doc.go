// Package sotto is the shared vocabulary of Sotto, a local speech-and-language
// gateway: the [Audio] type every capability consumes, and the error kinds and
// [Error] type every capability returns.
//
// Each capability is its own package — [github.com/sottolabs/sotto/align],
// [github.com/sottolabs/sotto/normalize], [github.com/sottolabs/sotto/segment],
// [github.com/sottolabs/sotto/speaker], [github.com/sottolabs/sotto/tts],
// [github.com/sottolabs/sotto/asr] and [github.com/sottolabs/sotto/llm] — with a
// small Backend interface and a registry of drivers in the style of
// database/sql. The [github.com/sottolabs/sotto/server] package puts the /v1
// HTTP API on top of them.
//
// # Errors
//
// Every error a capability returns for bad input or an unsatisfiable request
// is (or wraps) an [*Error]. Its Kind is one of the sentinels below, so callers
// can write
//
//	_, err := normalize.Normalize(ctx, "5 km", normalize.Options{Language: "tlh"})
//	if errors.Is(err, sotto.ErrUnsatisfiable) { ... } // Klingon is not supported
//
// and read the spec's machine code and offending parameter with errors.As:
//
//	var se *sotto.Error
//	if errors.As(err, &se) { log.Print(se.Code, se.Param) }
//
// The server maps kinds to HTTP status codes in exactly one place.
package sotto
