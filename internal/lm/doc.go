// Package lm reads back-off n-gram language models for the speech
// recognizer: sphinxbase's binary trie format (the en-us.lm.bin of Debian's
// pocketsphinx-en-us), ARPA text, so a user can bring a domain model, and
// a compact binary form of its own that loads without parsing.
//
//	m, err := lm.Load("/usr/share/pocketsphinx/model/en-us/en-us.lm.bin")
//	if err != nil { ... }
//	the, _ := m.ID("the")
//	of, _ := m.ID("of")
//	one, _ := m.ID("one")
//	p := m.Score(the, of, one) // ln P(the | one of), history most recent first
//
// # Formats
//
// [Load] and [Parse] pick the format from the first bytes: "Trie Language
// Model" ([ParseTrie]), "SOTTOLM" ([ParseBinary]) or ARPA text
// ([ParseARPA]). The older sphinxbase "Darpa Trigram LM" (DMP) format is
// not read; Debian ships the trie, and sphinx_lm_convert turns a DMP file
// into either supported format. [Model.WriteARPA] writes any model as ARPA
// text, including the Debian model, which the peer's converter cannot
// write.
//
// ARPA text is the interchange format, but parsing it takes seconds for a
// model of a million n-grams. [Model.WriteBinary] writes a model's own
// arrays (vocabulary, scores, back-off weights and trie pointers, as
// float32 natural logs, little-endian, with a magic, a format version, the
// file's size and a CRC-32C checksum); [ParseBinary] checks all of it and
// uses the arrays in place, without an allocation per n-gram, and the
// model read back scores bit for bit as the one written. The layout is
// documented in binary.go. Package asr keeps its second model, built from
// Debian text, in this form beside the ARPA file.
//
// # Scores
//
// Scores are natural-log probabilities (nats). A missing n-gram backs off
// in the usual way: the probability after a shorter history plus the
// back-off weights of the longer histories. Both readers build the same
// structure, a reversed trie as in sphinxbase and KenLM (the predicted
// word, then its history backwards), with "blank" entries added where a
// longer n-gram needs a missing shorter one; blanks do not change scores.
// The binary format stores n-gram scores in 16-bit quantisation bins, so
// it agrees with the ARPA text it was made from to about 1e-4 (log10),
// except at sphinxbase's blank entries, whose values it quantises into bins
// trained without them; the reader returns what the file holds.
//
// A loaded [Model] is read-only and safe for concurrent use.
package lm
