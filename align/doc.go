// Package align locates the words of a known transcript in audio (forced
// alignment).
//
//	a, _, err := audio.DecodeFile(ctx, "speech.wav", audio.Options{})
//	if err != nil {
//		return err
//	}
//	res, err := align.Align(ctx, a, "ask not what your country can do for you", align.Options{Language: "en"})
//	if err != nil {
//		return err
//	}
//	for _, s := range res.Segments {
//		for _, w := range s.Words {
//			fmt.Println(w.Word, w.Start, w.End) // seconds
//		}
//	}
//
// [Align] uses the default backend, opened on the first call and shared
// afterwards, as [net/http.Get] uses the default client. To choose the
// driver or the model, or to release the model when done, open a [Backend]
// yourself:
//
//	b, err := align.Open(ctx, "", backend.Config{}) // the pure-Go aligner on the Debian English model
//	if err != nil {
//		return err
//	}
//	defer b.Close()
//	res, err := b.Align(ctx, a, "ask not what your country can do for you",
//		align.Options{Language: "en", TextNormalization: align.DefaultTextNormalization})
//
// # Backends
//
// [Open] with an empty name runs the highest-priority registered [Driver].
// The pure-Go driver "go" is the default; native drivers register
// themselves when built with their tag (for example -tags onnx), the way
// database/sql drivers do.
package align
