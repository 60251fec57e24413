// Package transcript renders a finished transcription in the response
// formats of POST /v1/audio/transcriptions (spec part 4), for the server and
// for the sotto-transcribe command, so both write the same bytes:
//
//	res := &transcript.Result{Segments: segs, Language: "en", Duration: a.Seconds()}
//	err := transcript.Write(ctx, w, transcript.SRT, res, transcript.Granularities{})
//
// # Formats
//
//   - json: {"text", "duration", "usage"} — the text with the media's duration.
//   - verbose_json: task, language, duration, text, and segments and/or
//     words as [Granularities] ask (segments when none is given, as OpenAI
//     does), plus usage.
//   - text: the text and a newline, as text/plain.
//   - srt, vtt: subtitle cues built by package segment from the segments'
//     words (sentences, then at most two lines of 42 columns and 7 s a
//     cue; see [Result.Cues]), written by [segment.WriteSRT] and
//     [segment.WriteVTT].
//   - diarized_json: verbose_json with "speakers" and a speaker on every
//     segment and word, from the speaker timeline in [Result.Turns] (see
//     [Result.Diarized]); without a timeline [Write] returns
//     [ErrDiarization]'s 422 error rather than invent a speaker.
//
// Times are rounded to the millisecond. Segments are numbered 0, 1, 2… in
// the order given, whatever IDs the backend set.
package transcript
