// Package audio turns uploaded audio and video files into the 16 kHz mono
// [sotto.Audio] that every Sotto capability consumes.
//
//	a, info, err := audio.DecodeFile(ctx, "/tmp/upload-123", audio.Options{Track: 0, Channel: "mix"})
//	if err != nil {
//		return err // a *sotto.Error for bad input; see Errors below
//	}
//	log.Printf("decoded %v", info) // e.g. "FLAC via go: 44100 Hz, 2 ch, 1 track(s), 11s"
//	// a.Samples: mono float32 in [-1, 1] at 16 kHz, ready for any capability
//
// # Formats
//
// The format is detected from the first bytes of the input ([Sniff]), never
// from the file name. Three formats are decoded in pure Go:
//
//   - WAV: RIFF, RF64 and BW64; PCM with 8, 16, 24 or 32 bits (or fewer valid
//     bits in such a container), IEEE float with 32 or 64 bits, plain or
//     WAVE_FORMAT_EXTENSIBLE. Chunks of any kind and odd size may precede
//     or follow the data. A data chunk whose size is 0 or 0xFFFFFFFF (written
//     by a streaming encoder that could not seek back) runs to the end of the
//     input. Every chunk is validated and an inconsistent file is rejected,
//     rather than decoded to garbage or silence. A file cut off inside its
//     data (a crashed recorder, an interrupted copy) decodes to the whole
//     frames that are there, with [Info].Truncated set for a warning, as
//     ffmpeg does; a cut in the header is an error. FLAC alike.
//   - MP3 (MPEG-1, 2 and 2.5 layer III), with gapless trimming: the encoder
//     delay and padding recorded in a LAME/Xing tag are removed, so the
//     output lines up sample for sample with the original recording.
//   - FLAC.
//
// Every other format (Ogg Opus and Vorbis, MP4/M4A/MOV, Matroska/WebM, AAC,
// AIFF, WMA, AMR, WAV with a compressed codec, ...) is decoded by the ffmpeg
// program when it is on PATH ([FFmpegAvailable]). ffmpeg runs as a child
// process with only the file protocol allowed, converts the selected audio
// track to 32-bit float WAV on a pipe, and this package does the channel
// selection and resampling, so every format goes through the same code. When
// ffmpeg is missing, such input fails with a 400 error that names the
// detected format and says to install ffmpeg (apt-get install ffmpeg).
//
// # Tracks and channels
//
// [Options] selects what to decode. Track is the zero-based index among the
// decodable audio tracks (video and subtitle streams do not count); WAV, MP3
// and FLAC have exactly one. Channel is "mix" (the default: the average of
// all channels) or a zero-based channel index. The server parses the
// audio_track and audio_channel request fields with [ParseTrack] and
// [ParseChannel].
//
// # Resampling
//
// Decoded audio streams through a polyphase Kaiser-windowed sinc
// [Resampler], chunk by chunk, so a long file is never held at its original
// rate: memory stays close to the size of the 16 kHz output (4 bytes per
// sample, 3.8 MB per minute) plus fixed buffers. The filter is flat to
// 0.01 dB up to 90% of the lower Nyquist frequency and attenuates
// everything above it by at least 80 dB, so downsampling does not alias.
// [Resample] and [Resampler] are exported for other rate conversions.
//
// # Errors
//
// Problems with the input are *sotto.Error values of kind
// [sotto.ErrInvalidRequest] (HTTP 400):
//
//   - code "unsupported_audio_format", param "file": the bytes are not a
//     recognised format, or the format needs ffmpeg and it is not installed;
//   - code "bad_request", param "file": the file is corrupt, or truncated
//     before its first sample;
//   - code "bad_request", param "audio_track" or "audio_channel": the
//     selection is malformed or the file does not have that track or
//     channel.
//
// Other errors (reading the input, starting ffmpeg) are returned wrapped and
// are the server's fault. When the context is cancelled, decoding stops
// within one chunk, ffmpeg is killed, and the error wraps ctx.Err().
//
// # Concurrency
//
// [Decode], [DecodeFile], [Resample] and [Sniff] are safe for concurrent use;
// a [Resampler] holds the state of one stream and is not.
package audio
