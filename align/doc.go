// Package align locates the words of a known transcript in audio (forced
// alignment).
//
//	a, _ := audio.DecodeFile(ctx, "speech.wav", audio.Options{})
//	res, err := align.Align(ctx, a, "ask not what your country can do for you", align.Options{Language: "en"})
//	for _, s := range res.Segments { for _, w := range s.Words { fmt.Println(w.Word, w.Start, w.End) } }
//
// # Backends
//
// Align runs the highest-priority registered [Driver]. The pure-Go driver
// "go" is the default; native drivers register themselves when built with
// their tag (for example -tags onnx), the way database/sql drivers do.
package align
