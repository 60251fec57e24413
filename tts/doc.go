// Package tts turns text into speech.
//
//	b, err := tts.Open(ctx, "flite", backend.Config{}) // or "espeak-ng"
//	if err != nil { ... }
//	defer b.Close()
//	for c, err := range tts.Stream(ctx, b, "It costs $12.50. See you at 3:30 pm.", tts.Options{}) {
//		if err != nil { ... }
//		fmt.Printf("%d samples at %d Hz\n", len(c.Samples), c.Rate) // mono float32, a sentence at a time
//	}
//
// # The pipeline
//
// [Speak] (and [Stream], its iterator form) prepares the text the way a
// reader would: written forms become words with package normalize ("$12.50"
// is "twelve dollars fifty cents", "3:30 pm" is "three thirty PM"), for the
// voice's language where normalize has rules, and the text is split into
// sentences with package segment. The first sentence is synthesized alone, so
// its audio leaves as soon as the engine has made it; while one sentence is
// delivered, the next two are already being synthesized.
//
// # Backends
//
// A [Backend] speaks one piece of text and emits PCM chunks. Two drivers are
// built in; both run an installed program once per sentence, so Sotto's
// binary links neither (espeak-ng is GPL-3):
//
//   - "flite": the English voices of Debian's flite (rms, the default,
//     kal16, slt, awb, kal) with speed and, for the diphone voices, pitch. Catalog model
//     Sotto/Flite, the default speech model.
//   - "espeak-ng": every language espeak-ng has, as builtin:<language>
//     voices (builtin:de, builtin:en-gb ...), with speed, pitch and
//     variant (builtin:en-us+klatt, or [Options].Variant). Catalog model
//     Sotto/eSpeak.
//   - "clone": both engines' voices, plus voice cloning ([Cloner]).
//     Catalog model Sotto/Clone.
//
// # Voices
//
// Backends list their voices ([Lister]). [FindVoice] finds one by ID,
// [PickVoice] chooses one for a language (the spec's builtin:auto), and
// [DesignVoice] turns a description such as "a slow, deep male voice with a
// British accent" into a voice and engine settings (builtin:design),
// reporting what it applied.
//
// # Voice cloning
//
// The clone driver's backend implements [Cloner]. [AnalyzeVoice] measures
// a reference recording (F0 mean and spread, long-term average spectrum,
// syllable rate) into a [VoiceProfile]; [Cloner.Clone] returns a
// [ClonedVoice], a Backend whose every synthesis is a base voice moved
// toward that profile by signal processing: F0 through the engine's pitch
// settings, vocal-tract length by a frequency warp (resample, then WSOLA
// back to the original duration), the spectral envelope by an equalizer,
// the rate through the engine's speed.
//
//	ref, _, err := audio.DecodeFile(ctx, "reference.wav", audio.Options{})
//	if err != nil { ... }
//	emit := func(c tts.Chunk) error { fmt.Println(len(c.Samples)); return nil } // each sentence's audio
//	prof, err := tts.AnalyzeVoice(ctx, ref.Samples, ref.Rate(), "file")
//	cv, err := b.(tts.Cloner).Clone(ctx, tts.CloneOptions{Reference: prof, Recipe: tts.RecipeUltimate})
//	err = tts.Speak(ctx, cv, "Hello.", tts.Options{Voice: cv.Voice().ID}, emit)
//
// [RecipeControllable] converts a chosen base voice and keeps the pitch and
// speed controls; [RecipeUltimate] picks the base voice nearest the
// reference and matches the whole long-term spectrum. No trained weights
// are involved: it moves a voice's long-term statistics, not its fine
// detail.
//
// The engines here are deterministic: the same request gives the same
// samples, with or without a seed.
package tts
