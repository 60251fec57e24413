// Package whisper is Sotto's pure-Go Whisper engine: the legacy GGML
// Whisper model file format (reader, writer and a seeded random-weight
// generator), Whisper's log-mel front end, the audio encoder, the text
// decoder with its key/value cache, and whisper.cpp's decoding loop
// (token rules, greedy and beam search, temperature fallback, timestamps,
// long-form seeking, language detection, prompts, translation).
//
//	m, err := whisper.Open("ggml-tiny.bin") // memory-mapped
//	if err != nil { ... }
//	defer m.Close()
//	if err := m.CheckTensors(); err != nil { ... } // every weight present, right shape and type
//	pool := tensor.NewPool(0)
//	defer pool.Close()
//	tr, err := whisper.NewTranscriber(m, pool)
//	if err != nil { ... }
//	res, err := tr.TranscribeSamples(ctx, samples16k, whisper.DefaultParams(whisper.Greedy))
//	for _, s := range res.Segments { fmt.Println(s.T0, s.T1, s.Text) } // times in centiseconds
//
// # File format
//
// A GGML Whisper file (what whisper.cpp's converters write, e.g.
// ggml-base.en.bin) is little-endian and unaligned:
//
//   - the magic 0x67676d6c ("ggml");
//   - eleven int32: n_vocab, n_audio_ctx, n_audio_state, n_audio_head,
//     n_audio_layer, n_text_ctx, n_text_state, n_text_head, n_text_layer,
//     n_mels, ftype (the weight type, plus 1000 × the quantization version
//     in quantized files);
//   - the mel filters: int32 n_mel, int32 n_fft (201), then n_mel × n_fft
//     float32;
//   - the vocabulary: int32 count, then per token a uint32 length and its
//     bytes (the BPE tokens only; the special tokens above them are
//     implied by n_vocab);
//   - tensors until the end of the file: int32 n_dims, int32 name length,
//     int32 GGML type, n_dims int32 dimensions (row length first), the
//     name, then the data.
//
// [Parse] checks every length and size against the file before slicing it
// and rejects hostile headers with errors wrapping [ErrFormat]; tensor
// data stay in the mapping. [Specs] lists the tensors the network needs
// and [Model.CheckTensors] checks a file against it.
//
// # Random-weight models
//
// No real Whisper weights are needed to test the engine against
// whisper.cpp: [WriteRandom] (and the genmodel command in this directory)
// writes files of any real shape with seeded random weights, taking the
// vocabulary and mel filters from a weightless file such as whisper.cpp's
// models/for-tests-ggml-tiny.bin. The bytes depend only on the seed.
//
// # Log-mel front end
//
// [LogMel] reproduces whisper.cpp's spectrogram (itself OpenAI Whisper's):
// 16 kHz input, 400-point periodic Hann window, hop 160, 200 reflected
// samples in front and 30 s of zeros behind, power spectrum through the
// file's filters (80 or 128 bins), log10 floored at 1e-10, clamped to the
// maximum minus 8, mapped by (x+4)/4. On real speech it agrees with
// whisper.cpp to about 1e-6.
//
// # Encoder
//
// [Encoder] runs Whisper's audio encoder (two convolutions with GELU,
// positional embedding, pre-norm self-attention blocks, final layer norm)
// on 3000 mel frames with the internal/tensor kernels. It rounds where
// whisper.cpp's CPU backend rounds (convolution inputs and F16-matrix
// inputs to half precision, quantized-matrix inputs through Q8_0, GELU
// through half precision) so that the two agree closely; see
// testdata/README.md for the recorded outputs and the tests for the
// tolerances. Weights stay as the file stores them (F16, Q8_0, Q5_0,
// Q5_1 …, memory-mapped). Its products with float and five-bit weights
// are blocked matrix × matrix products (tensor's Pool.MatMulF, which
// converts each weight row to float32 once per product), those with
// Q8_0 weights run on the 8-bit kernels, and its attention takes the
// queries 32 at a time, each head's scores and weighted values as two
// such products, so the 1500 × 1500 score matrix never exists whole.
//
// # Decoder
//
// [Decoder] runs the text decoder one token at a time. The keys and values
// of the cross-attention are computed once per window ([Decoder.Audio]);
// each sequence keeps its self-attention cache in a [DecoderState], whose
// [DecoderState.Step] allocates nothing. It follows whisper.cpp's
// non-flash attention path: cache in half precision, attention
// probabilities rounded to half precision, matrix inputs rounded as the
// encoder's.
//
// # Decoding
//
// [Transcriber.Transcribe] is whisper.cpp's whisper_full loop: the prompt
// (<|startofprev|> and previous text, <|startoftranscript|>, language,
// task, <|notimestamps|>), the token rules (blank and special-token
// suppression, timestamps in pairs and never going back, the first
// timestamp at most MaxInitialTS, a timestamp whenever the timestamps
// together outweigh every text token), greedy or beam search, temperature
// fallback on the entropy and log-probability thresholds, segments cut at
// timestamp tokens and seeking from window to window. Sampling at
// temperature > 0 and whisper.cpp's beam search draw from std::mt19937
// with libstdc++'s std::discrete_distribution, reproduced here, so that
// even those agree with a whisper.cpp built with GCC. Text prompts are
// tokenized as whisper.cpp tokenizes them ([Tokenizer]).
//
// How close to whisper.cpp: on random-weight tiny models (testdata/README.md)
// the decoder's logits agree to about 1e-3 (F16) and 0.04 (Q8_0, Q5_0), and
// whisper_full's segments come out identical except where two tokens are
// within that distance (a near-tie, which differences below it can flip);
// docs/bench/whisper.md has the figures. Two deliberate differences:
// language detection ranks only the model's own languages (whisper.cpp
// ranks 100 codes on 99-language models, the hundredth reading
// <|translate|>), and every call starts afresh, as whisper.cpp's
// whisper_full with no_context on a new state (whisper.cpp keeps decoder
// 0's random generator and, with no_context off, the previous call's text
// in its state).
package whisper
