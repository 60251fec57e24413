package server

import (
	"bytes"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/align"
	"github.com/sottolabs/sotto/audio"
)

// alignRequest is a validated POST /v1/audio/alignments request.
type alignRequest struct {
	file              *spooled
	text              string
	model             ModelInfo
	language          string // "" detect, "und", or a canonical tag
	start, end        float64
	window            bool
	searchEffort      string
	protectedTerms    []string
	normalization     textNormalization
	audio             audio.Options
	semanticSentences *bool
	minChars          int
	maxChars          int
	lengths           bool // a length field was supplied
	startMargin       float64
	endMargin         float64
}

// textNormalization is the JSON object sent in the text_normalization
// multipart field.
type textNormalization struct {
	Enabled         *bool    `json:"enabled"`
	TopK            *int     `json:"top_k"`
	Classes         []string `json:"classes"`
	ApplyDictionary bool     `json:"apply_dictionary"`
	DictionaryIDs   []string `json:"dictionary_ids"`
	Pins            []struct {
		SourceStartByte int  `json:"source_start_byte"`
		SourceEndByte   int  `json:"source_end_byte"`
		Rank            *int `json:"rank"`
	} `json:"pins"`
	on bool
}

const lattice1ID = "Sotto/Lattice-1"

// parseAlignRequest validates every field of an alignment request except
// the window's upper bound, which needs the audio's duration.
func (s *Server) parseAlignRequest(f *form) (*alignRequest, error) {
	req := &alignRequest{file: f.files["file"], searchEffort: "standard"}
	get := func(name string) (string, bool, error) { return f.value(name) }
	if req.file == nil {
		return nil, sotto.Invalid("bad_request", "file", "field \"file\" (the audio) is required")
	}
	text, hasText, err := get("text")
	if err != nil {
		return nil, err
	}
	textPath, hasPath, err := get("text_path")
	if err != nil {
		return nil, err
	}
	switch {
	case hasPath && !s.cfg.Desktop:
		return nil, sotto.Invalid("bad_request", "text_path",
			"text_path (a file on the service host) is accepted by the desktop gateway only; send the transcript in text")
	case hasPath && hasText:
		return nil, sotto.Invalid("bad_request", "text_path", "send either text or text_path, not both")
	case hasPath:
		text, err = readTranscriptFile(textPath)
		if err != nil {
			return nil, err
		}
	case !hasText:
		return nil, sotto.Invalid("bad_request", "text", "field \"text\" (the transcript to align) is required")
	}
	if strings.TrimSpace(text) == "" {
		return nil, sotto.Invalid("bad_request", "text", "the transcript is empty")
	}
	if !utf8.ValidString(text) {
		return nil, sotto.Invalid("bad_request", "text", "the transcript is not valid UTF-8")
	}
	req.text = text

	model, _, err := get("model")
	if err != nil {
		return nil, err
	}
	if req.model, err = s.resolveModel(model, pathAlignments); err != nil {
		return nil, err
	}
	if req.language, err = alignLanguage(f, req.model); err != nil {
		return nil, err
	}
	if err := parseWindow(f, req); err != nil {
		return nil, err
	}
	effort, _, err := get("search_effort")
	if err != nil {
		return nil, err
	}
	switch effort {
	case "", "standard":
	case "extended", "auto":
		req.searchEffort = effort
	default:
		return nil, sotto.Invalid("bad_request", "search_effort",
			"search_effort %q is not standard, extended or auto", effort)
	}
	if req.protectedTerms, err = protectedTerms(f); err != nil {
		return nil, err
	}
	if req.normalization, err = parseTextNormalization(f); err != nil {
		return nil, err
	}
	track, _, err := get("audio_track")
	if err != nil {
		return nil, err
	}
	if req.audio.Track, err = audio.ParseTrack(track); err != nil {
		return nil, err
	}
	ch, _, err := get("audio_channel")
	if err != nil {
		return nil, err
	}
	if _, err := audio.ParseChannel(ch); err != nil {
		return nil, err
	}
	req.audio.Channel = ch
	if err := parseSentenceFields(f, req); err != nil {
		return nil, err
	}
	return req, nil
}

// readTranscriptFile reads a desktop text_path transcript.
func readTranscriptFile(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", sotto.Invalid("bad_request", "text_path", "text_path must be an absolute path, not %q", p)
	}
	st, err := os.Stat(p)
	if err != nil || !st.Mode().IsRegular() {
		return "", sotto.Invalid("bad_request", "text_path", "text_path %q is not a readable file", p)
	}
	if st.Size() > maxFormValue {
		return "", sotto.Invalid("bad_request", "text_path", "text_path %q is larger than %d MiB", p, maxFormValue>>20)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", sotto.Invalid("bad_request", "text_path", "reading text_path: %v", err)
	}
	return string(b), nil
}

func alignLanguage(f *form, m ModelInfo) (string, error) {
	lang, _, err := f.value("language")
	if err != nil || lang == "" {
		return "", err
	}
	if lang == "und" {
		if m.ID == lattice1ID {
			return "", sotto.Invalid("bad_request", "language",
				"%s needs a language (en, zh or de); und is served by Sotto/Lattice-2", m.ID)
		}
		return "und", nil
	}
	tag, err := language.Parse(lang)
	if err != nil {
		return "", sotto.Invalid("bad_request", "language", "language %q is not a known language tag", lang)
	}
	if !languageIn(tag.String(), m.Languages) && !containsAny(m.Languages) {
		return "", sotto.Unsatisfiable("language_unsupported", "language",
			"%s does not cover %q (it covers %s); use Sotto/Lattice-2", m.ID, lang, strings.Join(m.Languages, ", "))
	}
	return tag.String(), nil
}

func containsAny(langs []string) bool {
	for _, l := range langs {
		if l == "*" {
			return true
		}
	}
	return false
}

func parseNumber(f *form, name string) (float64, bool, error) {
	v, ok, err := f.value(name)
	if err != nil || !ok {
		return 0, ok, err
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, true, sotto.Invalid("bad_request", name, "%s must be a number of seconds, not %q", name, v)
	}
	return x, true, nil
}

func parseWindow(f *form, req *alignRequest) error {
	start, hasStart, err := parseNumber(f, "start")
	if err != nil {
		return err
	}
	end, hasEnd, err := parseNumber(f, "end")
	if err != nil {
		return err
	}
	switch {
	case hasStart && !hasEnd:
		return sotto.Invalid("bad_request", "end", "start needs end: send both to align a window")
	case hasEnd && !hasStart:
		return sotto.Invalid("bad_request", "start", "end needs start: send both to align a window")
	case !hasStart:
		return nil
	case start < 0:
		return sotto.Invalid("bad_request", "start", "start %g is negative; a window needs 0 <= start < end", start)
	case end <= start:
		return sotto.Invalid("bad_request", "end", "end %g is not after start %g; a window needs 0 <= start < end", end, start)
	}
	req.start, req.end, req.window = start, end, true
	return nil
}

func protectedTerms(f *form) ([]string, error) {
	terms := append([]string(nil), f.values["protected_terms[]"]...)
	for _, v := range f.values["protected_terms"] {
		var list []string
		if err := json.Unmarshal([]byte(v), &list); err != nil {
			if strings.HasPrefix(strings.TrimSpace(v), "[") {
				return nil, sotto.Invalid("bad_request", "protected_terms", "protected_terms must be a JSON array of strings")
			}
			list = []string{v}
		}
		terms = append(terms, list...)
	}
	out := terms[:0]
	for _, t := range terms {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out, nil
}

func parseTextNormalization(f *form) (textNormalization, error) {
	var tn textNormalization
	v, ok, err := f.value("text_normalization")
	if err != nil {
		return tn, err
	}
	if !ok {
		tn.on = true
		return tn, nil
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(v)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tn); err != nil {
		const fields = "enabled, top_k, classes, apply_dictionary, dictionary_ids, pins"
		if t := bytes.TrimSpace([]byte(v)); len(t) == 0 || t[0] != '{' {
			return tn, sotto.Invalid("bad_request", "text_normalization",
				"text_normalization must be a JSON object with %s, not %s", fields, jsonValueKind(t))
		}
		// The field at fault, as the other JSON errors name it (the
		// decoder's own message names Go types).
		if se, ok := jsonError(err, "bad_request", &tn).(*sotto.Error); ok {
			if se.Param != "" {
				se.Param = "text_normalization." + se.Param
			} else {
				se.Param = "text_normalization"
			}
			se.Message = "text_normalization: " + se.Message
			return tn, se
		}
		return tn, sotto.Invalid("bad_request", "text_normalization",
			"text_normalization must be a JSON object with %s: %v", fields, err)
	}
	// An empty object disables normalization, as does enabled: false.
	tn.on = tn.Enabled != nil && *tn.Enabled
	if !tn.on {
		// A user who sends {"pins": [...]} alone meant it on: say why it
		// is off (an object without enabled disables normalization).
		why := "text normalization is disabled"
		if tn.Enabled == nil {
			why += ` (an object without "enabled": true disables it)`
		}
		switch {
		case tn.TopK != nil:
			return tn, sotto.Invalid("bad_request", "text_normalization.top_k", "top_k cannot be set when %s", why)
		case tn.Classes != nil:
			return tn, sotto.Invalid("bad_request", "text_normalization.classes", "classes cannot be set when %s", why)
		case len(tn.Pins) > 0:
			return tn, sotto.Invalid("bad_request", "text_normalization.pins", "pins cannot be set when %s", why)
		}
		return tn, nil
	}
	if tn.TopK != nil && (*tn.TopK < 1 || *tn.TopK > 16) {
		return tn, sotto.Invalid("bad_request", "text_normalization.top_k", "top_k %d is outside 1 to 16", *tn.TopK)
	}
	if tn.Classes != nil && len(tn.Classes) == 0 {
		return tn, sotto.Invalid("bad_request", "text_normalization.classes", "classes must not be empty when given")
	}
	for i, p := range tn.Pins {
		if p.SourceStartByte < 0 || p.SourceEndByte < p.SourceStartByte {
			return tn, sotto.Invalid("bad_request", "text_normalization.pins",
				"pin %d: 0 <= source_start_byte <= source_end_byte is required", i)
		}
		if p.Rank != nil && (*p.Rank < 0 || *p.Rank > 15) {
			return tn, sotto.Invalid("bad_request", "text_normalization.pins", "pin %d: rank %d is outside 0 to 15", i, *p.Rank)
		}
	}
	return tn, nil
}

func parseSentenceFields(f *form, req *alignRequest) error {
	req.minChars, req.maxChars, req.startMargin, req.endMargin = 12, 42, 0.2, 0.2
	var supplied []string
	for _, name := range []string{"min_chars", "max_chars"} {
		v, ok, err := f.value(name)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 {
			return sotto.Invalid("bad_request", name, "%s must be a positive integer, not %q", name, v)
		}
		if name == "min_chars" {
			req.minChars = n
		} else {
			req.maxChars = n
		}
		req.lengths = true
		supplied = append(supplied, name)
	}
	if req.minChars > req.maxChars {
		return sotto.Invalid("bad_request", "min_chars", "min_chars %d is above max_chars %d", req.minChars, req.maxChars)
	}
	for _, name := range []string{"start_margin", "end_margin"} {
		x, ok, err := parseNumber(f, name)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if x < 0 {
			return sotto.Invalid("bad_request", name, "%s must not be negative", name)
		}
		if name == "start_margin" {
			req.startMargin = x
		} else {
			req.endMargin = x
		}
		supplied = append(supplied, name)
	}
	v, ok, err := f.value("semantic_sentence_enabled")
	if err != nil || !ok {
		return err
	}
	b, err := strconv.ParseBool(strings.TrimSpace(v))
	if err != nil {
		return sotto.Invalid("bad_request", "semantic_sentence_enabled", "semantic_sentence_enabled must be true or false")
	}
	if !b && len(supplied) > 0 {
		return sotto.Invalid("bad_request", "semantic_sentence_enabled",
			"semantic_sentence_enabled=false conflicts with %s, which need sentence processing", strings.Join(supplied, ", "))
	}
	req.semanticSentences = &b
	return nil
}

// handleAlignment validates the request, decodes the audio and checks the
// window against it, then runs the alignment model. With the request header
// "progress: 1" it answers NDJSON: progress lines, a stage line when an auto
// search widens, and a final line with the result or the error envelope.
func (s *Server) handleAlignment(w http.ResponseWriter, r *http.Request) {
	f, err := parseMultipart(r, s.cfg.SpoolDir)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer f.Close()
	req, err := s.parseAlignRequest(f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	a, err := s.decodeUpload(w, r, req.file.path, req.audio)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	dur := a.Seconds()
	if req.window && req.end > dur+1e-6 {
		s.writeError(w, r, sotto.Invalid("bad_request", "end",
			"the window %g..%g s ends after the audio (%.3f s)", req.start, req.end, dur))
		return
	}
	b, release, err := acquire[align.Backend](r.Context(), s, req.model.ID, "align")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	opts := req.options()
	var stream *ndjsonWriter
	if r.Header.Get("progress") == "1" {
		stream = newNDJSON(w)
		total := dur
		if req.window {
			total = req.end - req.start
		}
		opts.Progress = func(p align.Progress) {
			if p.Stage != "" {
				// Progress restarts from 0 after a stage line (spec
				// 6.4): the 0 goes out even when the stage ends
				// before it reports, and a client's bar resets.
				stream.line(stageLine{Object: "alignment.stage", Stage: p.Stage})
				stream.progress(progressLine{Object: "alignment.progress", TotalSeconds: total}, 0, true)
				return
			}
			stream.progress(progressLine{Object: "alignment.progress", Progress: p.Fraction,
				ProcessedSeconds: p.Seconds, TotalSeconds: total}, p.Fraction, false)
		}
	}
	res, err := b.Align(r.Context(), a, req.text, opts)
	if stream == nil {
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, res)
		return
	}
	if err != nil {
		resp := errorFor(err)
		if resp.status == StatusClientClosedRequest {
			return
		}
		s.log.Debug("alignment failed", "id", requestID(r.Context()), "err", err)
		stream.line(resp.body)
		return
	}
	stream.line(res)
}

// options converts a validated request into align.Options.
func (req *alignRequest) options() align.Options {
	o := align.Options{
		Model: req.model.ID, Language: req.language, SearchEffort: req.searchEffort,
		ProtectedTerms: req.protectedTerms,
		Sentences: align.SentenceOptions{Lengths: req.lengths, MinChars: req.minChars, MaxChars: req.maxChars,
			StartMargin: req.startMargin, EndMargin: req.endMargin,
			Disabled: req.semanticSentences != nil && !*req.semanticSentences},
	}
	if req.window {
		o.Start, o.End = req.start, req.end
	}
	tn := req.normalization
	if tn.on {
		o.TextNormalization = align.TextNormalization{Enabled: true, Classes: tn.Classes}
		if tn.TopK != nil {
			o.TextNormalization.TopK = *tn.TopK
		}
		for _, p := range tn.Pins {
			o.TextNormalization.Pins = append(o.TextNormalization.Pins,
				align.Pin{SourceStartByte: p.SourceStartByte, SourceEndByte: p.SourceEndByte, Rank: p.Rank})
		}
	}
	return o
}
