package segment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
)

// Request is the JSON body of POST /v1/text/segmentations. Decode it with
// [DecodeRequest] (or a json.Decoder with DisallowUnknownFields), then call
// [Request.Validate] and [Segment]. Numeric fields are kept raw so that a
// value of the wrong type is reported by Validate with its param, like a
// value out of range.
type Request struct {
	// Text is plain text input; paragraph mode requires this form.
	Text *string `json:"text,omitempty"`
	// Segments is timed input: an array of {text, start, end, speaker,
	// words}; other keys of a segment are ignored.
	Segments json.RawMessage `json:"segments,omitempty"`
	// File is a desktop-only absolute path to an exported transcript JSON.
	File *string `json:"file,omitempty"`
	// Language is a BCP 47 tag (an extension of the spec's fields, as on
	// normalizations); omitted or "" guesses it from the text.
	Language *string `json:"language,omitempty"`

	Threshold          json.RawMessage `json:"threshold,omitempty"`           // number in [0, 1]; default 0.35
	ParagraphThreshold json.RawMessage `json:"paragraph_threshold,omitempty"` // number in [0, 1], at least threshold
	MinChars           json.RawMessage `json:"min_chars,omitempty"`           // integer; default 12 when length constraints are on
	MaxChars           json.RawMessage `json:"max_chars,omitempty"`           // integer; default 42 when length constraints are on
	StartMargin        json.RawMessage `json:"start_margin,omitempty"`        // seconds; default 0.2
	EndMargin          json.RawMessage `json:"end_margin,omitempty"`          // seconds; default 0.2
	// Options may carry paragraph_threshold and the length and margin
	// fields (and threshold); a top-level field takes precedence.
	Options json.RawMessage `json:"options,omitempty"`
	// SemanticSentenceEnabled is not accepted by this endpoint; it is
	// declared only so that Validate can reject it with its param.
	SemanticSentenceEnabled json.RawMessage `json:"semantic_sentence_enabled,omitempty"`
}

// requestOptions is the shape of Request.Options.
type requestOptions struct {
	Threshold               json.RawMessage `json:"threshold,omitempty"`
	ParagraphThreshold      json.RawMessage `json:"paragraph_threshold,omitempty"`
	MinChars                json.RawMessage `json:"min_chars,omitempty"`
	MaxChars                json.RawMessage `json:"max_chars,omitempty"`
	StartMargin             json.RawMessage `json:"start_margin,omitempty"`
	EndMargin               json.RawMessage `json:"end_margin,omitempty"`
	SemanticSentenceEnabled json.RawMessage `json:"semantic_sentence_enabled,omitempty"`
}

// DecodeRequest reads one JSON request from r, rejecting unknown fields and
// trailing data. Errors are 400-kind [*sotto.Error] values with code
// "bad_request" and, where the decoder names one, the offending param.
func DecodeRequest(r io.Reader) (*Request, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var req Request
	if err := dec.Decode(&req); err != nil {
		return nil, jsonError(err, "")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, sotto.Invalid("bad_request", "", "request body must hold exactly one JSON object")
	}
	return &req, nil
}

// jsonError maps a decoding error to a 400 with the field it names.
func jsonError(err error, prefix string) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return &sotto.Error{Kind: sotto.ErrInvalidRequest, Code: "bad_request", Param: prefix + te.Field,
			Message: fmt.Sprintf("%s%s must be a %s, not a JSON %s", prefix, te.Field, jsonKind(te.Type.Kind().String()), te.Value)}
	case errors.As(err, &se):
		return &sotto.Error{Kind: sotto.ErrInvalidRequest, Code: "bad_request", Message: "malformed JSON at byte " + itoa(int(se.Offset)), Err: err}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return sotto.Invalid("bad_request", prefix+name, "unknown field %q", prefix+name)
	case errors.Is(err, io.EOF):
		return sotto.Invalid("bad_request", "", "empty request body")
	}
	return &sotto.Error{Kind: sotto.ErrInvalidRequest, Code: "bad_request", Message: "invalid JSON body", Err: err}
}

func jsonKind(k string) string {
	switch k {
	case "ptr":
		return "string"
	case "slice":
		return "JSON value"
	}
	return k
}

func present(raw json.RawMessage) bool {
	return len(raw) > 0 && !bytes.Equal(bytes.TrimSpace(raw), []byte("null"))
}

// Validate checks every rule of the endpoint without reading any file:
// exactly one of text, segments and file; file only when desktop is true and
// only as an absolute path; numeric fields that are numbers in range, with
// paragraph_threshold at least threshold, from the top level or from
// options (the top level wins); paragraph mode only for text or file input;
// semantic_sentence_enabled never. It returns a 400-kind [*sotto.Error] with
// code "bad_request" and the offending param. Validate has no side effects.
func (r *Request) Validate(desktop bool) error {
	_, _, err := r.resolve(desktop)
	return err
}

// SegmentOptions returns the segmentation options the request asks for,
// after validating it as [Request.Validate] does.
func (r *Request) SegmentOptions(desktop bool) (Options, error) {
	o, _, err := r.resolve(desktop)
	return o, err
}

func (r *Request) resolve(desktop bool) (Options, []Cue, error) {
	var o Options
	if present(r.SemanticSentenceEnabled) || r.SemanticSentenceEnabled != nil {
		return o, nil, sotto.Invalid("bad_request", "semantic_sentence_enabled", "semantic_sentence_enabled is not accepted: segmentation always segments")
	}
	var inputs []string
	if r.Text != nil {
		inputs = append(inputs, "text")
	}
	if present(r.Segments) {
		inputs = append(inputs, "segments")
	}
	if r.File != nil {
		inputs = append(inputs, "file")
	}
	switch len(inputs) {
	case 0:
		return o, nil, sotto.Invalid("bad_request", "text", "one of text, segments or file is required")
	case 1:
	default:
		return o, nil, sotto.Invalid("bad_request", inputs[1], "exactly one of text, segments or file may be given, not %s", strings.Join(inputs, " and "))
	}
	if r.Text != nil && strings.TrimSpace(*r.Text) == "" {
		return o, nil, sotto.Invalid("bad_request", "text", "text is empty")
	}
	if r.File != nil {
		if !desktop {
			return o, nil, sotto.Invalid("bad_request", "file", "file (a path on the service host) is accepted only by the desktop gateway; send text or segments inline")
		}
		if !filepath.IsAbs(*r.File) {
			return o, nil, sotto.Invalid("bad_request", "file", "file must be an absolute path, got %q", *r.File)
		}
	}
	if r.Language != nil && *r.Language != "" {
		t, err := language.Parse(*r.Language)
		if err != nil {
			return o, nil, sotto.Invalid("bad_request", "language", "language %q is not a BCP 47 tag (e.g. \"en\", \"de-AT\"); omit it to guess", *r.Language)
		}
		o.Language = t.String()
	}
	var opt requestOptions
	if present(r.Options) {
		if t := bytes.TrimSpace(r.Options); len(t) == 0 || t[0] != '{' {
			return o, nil, sotto.Invalid("bad_request", "options", "options must be a JSON object")
		}
		dec := json.NewDecoder(bytes.NewReader(r.Options))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opt); err != nil {
			return o, nil, jsonError(err, "options.")
		}
		if opt.SemanticSentenceEnabled != nil {
			return o, nil, sotto.Invalid("bad_request", "semantic_sentence_enabled", "semantic_sentence_enabled is not accepted: segmentation always segments")
		}
	}
	pick := func(top, inOpt json.RawMessage, name string) (json.RawMessage, string) {
		if present(top) {
			return top, name
		}
		if present(inOpt) {
			return inOpt, "options." + name
		}
		return nil, name
	}
	num := func(top, inOpt json.RawMessage, name string) (*float64, string, error) {
		raw, p := pick(top, inOpt, name)
		if raw == nil {
			return nil, p, nil
		}
		var x float64
		if raw[0] == '"' || json.Unmarshal(raw, &x) != nil {
			return nil, p, sotto.Invalid("bad_request", p, "%s must be a number, got %s", p, short(raw))
		}
		return &x, p, nil
	}
	integer := func(top, inOpt json.RawMessage, name string) (*int, string, error) {
		x, p, err := num(top, inOpt, name)
		if err != nil || x == nil {
			return nil, p, err
		}
		if *x != float64(int(*x)) || *x < 0 || *x > 1e6 {
			return nil, p, sotto.Invalid("bad_request", p, "%s must be a non-negative integer, got %v", p, *x)
		}
		n := int(*x)
		return &n, p, nil
	}
	th, thp, err := num(r.Threshold, opt.Threshold, "threshold")
	if err != nil {
		return o, nil, err
	}
	if th != nil && !inUnit(*th) {
		return o, nil, sotto.Invalid("bad_request", thp, "%s %v is outside [0, 1]", thp, *th)
	}
	o.Threshold = th
	pt, ptp, err := num(r.ParagraphThreshold, opt.ParagraphThreshold, "paragraph_threshold")
	if err != nil {
		return o, nil, err
	}
	if pt != nil {
		if !inUnit(*pt) {
			return o, nil, sotto.Invalid("bad_request", ptp, "%s %v is outside [0, 1]", ptp, *pt)
		}
		if *pt < o.threshold() {
			return o, nil, sotto.Invalid("bad_request", ptp, "%s %v must be at least threshold %v", ptp, *pt, o.threshold())
		}
		if present(r.Segments) {
			return o, nil, sotto.Invalid("bad_request", ptp, "paragraph mode (%s) requires text input, not segments", ptp)
		}
		o.ParagraphThreshold = pt
	}
	minC, minp, err := integer(r.MinChars, opt.MinChars, "min_chars")
	if err != nil {
		return o, nil, err
	}
	maxC, maxp, err := integer(r.MaxChars, opt.MaxChars, "max_chars")
	if err != nil {
		return o, nil, err
	}
	if minC != nil || maxC != nil {
		l := Length{MinChars: DefaultMinChars, MaxChars: DefaultMaxChars}
		if minC != nil {
			l.MinChars = *minC
		}
		if maxC != nil {
			if *maxC < 1 {
				return o, nil, sotto.Invalid("bad_request", maxp, "%s must be at least 1", maxp)
			}
			l.MaxChars = *maxC
		}
		if l.MinChars > l.MaxChars {
			return o, nil, sotto.Invalid("bad_request", minp, "%s %d exceeds max_chars %d", minp, l.MinChars, l.MaxChars)
		}
		if o.ParagraphThreshold != nil {
			p := minp
			if maxC != nil {
				p = maxp
			}
			return o, nil, sotto.Invalid("bad_request", p, "length constraints apply to sentences and cues, not to paragraph mode")
		}
		o.Length = &l
	}
	sm, smp, err := num(r.StartMargin, opt.StartMargin, "start_margin")
	if err != nil {
		return o, nil, err
	}
	em, emp, err := num(r.EndMargin, opt.EndMargin, "end_margin")
	if err != nil {
		return o, nil, err
	}
	if sm != nil || em != nil || o.Length != nil {
		m := Margins{Start: DefaultStartMargin, End: DefaultEndMargin}
		if sm != nil {
			if !(*sm >= 0 && *sm <= maxMargin) {
				return o, nil, sotto.Invalid("bad_request", smp, "%s %v must be between 0 and %v seconds", smp, *sm, maxMargin)
			}
			m.Start = *sm
		}
		if em != nil {
			if !(*em >= 0 && *em <= maxMargin) {
				return o, nil, sotto.Invalid("bad_request", emp, "%s %v must be between 0 and %v seconds", emp, *em, maxMargin)
			}
			m.End = *em
		}
		o.Margins = &m
	}
	var cues []Cue
	if present(r.Segments) {
		cues, err = parseCues(r.Segments, "segments")
		if err != nil {
			return o, nil, err
		}
	}
	return o, cues, nil
}

func short(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// MaxFileBytes is the largest transcript file [Segment] reads, matching the
// spec's request body limit.
const MaxFileBytes = 512 << 20

// Segment validates req and segments its input: text into sentences,
// paragraphs or cues, timed segments (or a transcript file, on the desktop
// gateway) into timed sentences or cues. It returns the spec's segmentation
// result; for plain text the items carry only text. Errors are 400-kind
// [*sotto.Error] values (413 for an oversized file) or ctx.Err(). Segment is
// safe for concurrent use.
func Segment(ctx context.Context, req *Request, desktop bool) (*Result, error) {
	opts, cues, err := req.resolve(desktop)
	if err != nil {
		return nil, err
	}
	switch {
	case req.Text != nil:
		return Text(ctx, *req.Text, opts)
	case req.File != nil:
		tr, err := readTranscript(*req.File)
		if err != nil {
			return nil, err
		}
		if tr.Segments == nil {
			return Text(ctx, tr.Text, opts)
		}
		if opts.ParagraphThreshold != nil {
			return nil, sotto.Invalid("bad_request", "paragraph_threshold", "paragraph mode requires text input; the file holds timed segments")
		}
		cues = tr.Segments
	}
	out, err := Cues(ctx, cues, opts)
	if err != nil {
		return nil, err
	}
	return TimedResult(out), nil
}

// TimedResult shapes timed cues as a segmentation result: every item has
// start and end, speaker when known, and words when the cue has them.
func TimedResult(cs []Cue) *Result {
	res := &Result{Task: "segment", Segments: make([]Item, 0, len(cs))}
	lines := make([]string, 0, len(cs))
	for _, c := range cs {
		s := Item{Text: c.Text, Start: Float(c.Start), End: Float(c.End), Words: c.Words}
		if c.Speaker != "" {
			sp := c.Speaker
			s.Speaker = &sp
		}
		res.Segments = append(res.Segments, s)
		lines = append(lines, c.Text)
	}
	res.Text = strings.Join(lines, "\n")
	return res
}

func readTranscript(path string) (*Transcript, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, sotto.Invalid("bad_request", "file", "cannot read file %q: %v", path, errors.Unwrap(err))
	}
	if fi.IsDir() {
		return nil, sotto.Invalid("bad_request", "file", "file %q is a directory", path)
	}
	if !fi.Mode().IsRegular() { // a device or pipe (/dev/zero) has no size and no end: ReadFile never returned
		return nil, sotto.Invalid("bad_request", "file", "file %q is not a regular file", path)
	}
	if fi.Size() > MaxFileBytes {
		return nil, sotto.TooLarge("request_too_large", "file", "file %q is larger than %d bytes", path, MaxFileBytes)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, sotto.Invalid("bad_request", "file", "cannot read file %q: %v", path, errors.Unwrap(err))
	}
	return ParseTranscript(data)
}

// Transcript is the content of an exported transcript file: timed segments
// when it has them, otherwise plain text (Segments is nil).
type Transcript struct {
	Text     string
	Segments []Cue
}

// ParseTranscript parses an exported transcript JSON: an object with
// "segments" (each with text, start, end and optional speaker and words,
// the shape of an alignment result or a verbose transcription), or with
// "words" only, or with "text" only, or a bare array of segments. Unknown
// keys are ignored. Segments without times make a plain-text transcript.
// Errors are 400-kind [*sotto.Error] values with param "file".
func ParseTranscript(data []byte) (*Transcript, error) {
	data = bytes.TrimSpace(data)
	bad := func(format string, args ...any) error {
		return sotto.Invalid("bad_request", "file", "transcript: "+format, args...)
	}
	if len(data) == 0 {
		return nil, bad("empty file")
	}
	var doc struct {
		Text     *string         `json:"text"`
		Segments json.RawMessage `json:"segments"`
		Words    json.RawMessage `json:"words"`
	}
	if data[0] == '[' {
		doc.Segments = data
	} else if err := json.Unmarshal(data, &doc); err != nil {
		// The decoder's message quotes the offending character; a path on
		// the desktop listener may name any readable file, so only the
		// offset is told.
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return nil, bad("not JSON (syntax error at byte %d); the file must be an exported transcript: an object with \"segments\", \"words\" or \"text\", or an array of segments (send plain text in \"text\")", syn.Offset)
		}
		return nil, bad("not a transcript object; the file must be an exported transcript: an object with \"segments\", \"words\" or \"text\", or an array of segments (send plain text in \"text\")")
	}
	// An empty segments array says nothing (a transcript of silence, or an
	// exporter that writes the array always): the words or the text of the
	// document are its content.
	var items []map[string]json.RawMessage
	if present(doc.Segments) {
		if err := json.Unmarshal(doc.Segments, &items); err != nil {
			return nil, bad("segments must be an array of objects")
		}
	}
	if len(items) > 0 {
		timed := true
		for _, it := range items {
			if !present(it["start"]) || !present(it["end"]) {
				timed = false
			}
		}
		if timed {
			cs, err := parseCues(doc.Segments, "segments")
			if err != nil {
				var se *sotto.Error
				if errors.As(err, &se) {
					return nil, bad("%s", se.Message)
				}
				return nil, err
			}
			return &Transcript{Segments: cs}, nil
		}
		var texts []string
		for i, it := range items {
			var t string
			if err := json.Unmarshal(it["text"], &t); err != nil {
				return nil, bad("segments[%d].text must be a string", i)
			}
			texts = append(texts, strings.TrimSpace(t))
		}
		return &Transcript{Text: strings.Join(texts, "\n")}, nil
	}
	if present(doc.Words) {
		ws, err := parseWords(doc.Words, "words")
		if err != nil {
			var se *sotto.Error
			if errors.As(err, &se) {
				return nil, bad("%s", se.Message)
			}
			return nil, err
		}
		if len(ws) == 0 {
			return nil, bad("no words")
		}
		c := Cue{Text: joinWords(ws), Start: ws[0].Start, End: ws[len(ws)-1].End, Words: ws}
		return &Transcript{Segments: []Cue{c}}, nil
	}
	if doc.Text != nil && strings.TrimSpace(*doc.Text) != "" {
		return &Transcript{Text: *doc.Text}, nil
	}
	return nil, bad("no segments, words or text")
}

// parseCues parses timed input segments leniently: unknown keys are
// ignored, text, start and end are required, speaker is a string or null,
// words are optional. Errors name the field as prefix[i].field.
func parseCues(raw json.RawMessage, prefix string) ([]Cue, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, sotto.Invalid("bad_request", prefix, "%s must be an array of objects", prefix)
	}
	if len(items) == 0 {
		return nil, sotto.Invalid("bad_request", prefix, "%s is empty", prefix)
	}
	out := make([]Cue, len(items))
	for i, it := range items {
		p := func(f string) string { return fmt.Sprintf("%s[%d].%s", prefix, i, f) }
		c := &out[i]
		if err := json.Unmarshal(it["text"], &c.Text); err != nil || !present(it["text"]) {
			if !present(it["text"]) && present(it["words"]) {
				c.Text = ""
			} else {
				return nil, sotto.Invalid("bad_request", p("text"), "%s must be a string", p("text"))
			}
		}
		for _, f := range [...]struct {
			name string
			dst  *float64
		}{{"start", &c.Start}, {"end", &c.End}} {
			if !present(it[f.name]) || it[f.name][0] == '"' || json.Unmarshal(it[f.name], f.dst) != nil {
				return nil, sotto.Invalid("bad_request", p(f.name), "%s must be a number of seconds", p(f.name))
			}
		}
		if sp := it["speaker"]; present(sp) {
			if err := json.Unmarshal(sp, &c.Speaker); err != nil {
				var n json.Number
				if json.Unmarshal(sp, &n) != nil {
					return nil, sotto.Invalid("bad_request", p("speaker"), "%s must be a string or null", p("speaker"))
				}
				c.Speaker = n.String() // numeric speaker ids from some diarizers
			}
		}
		if w := it["words"]; present(w) {
			ws, err := parseWords(w, p("words"))
			if err != nil {
				return nil, err
			}
			c.Words = ws
		}
	}
	if err := validateCues(out); err != nil {
		if se, ok := err.(*sotto.Error); ok && prefix != "segments" {
			se.Param = strings.Replace(se.Param, "segments", prefix, 1)
		}
		return nil, err
	}
	return out, nil
}

// parseWords parses timed words: {word or text, start, end, optional score
// or probability}.
func parseWords(raw json.RawMessage, prefix string) ([]Word, error) {
	var items []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, sotto.Invalid("bad_request", prefix, "%s must be an array of objects", prefix)
	}
	out := make([]Word, len(items))
	for i, it := range items {
		p := func(f string) string { return fmt.Sprintf("%s[%d].%s", prefix, i, f) }
		w := &out[i]
		key := "word"
		if !present(it[key]) {
			key = "text"
		}
		if err := json.Unmarshal(it[key], &w.Word); err != nil || !present(it[key]) {
			return nil, sotto.Invalid("bad_request", p("word"), "%s must be a string", p("word"))
		}
		for _, f := range [...]struct {
			name string
			dst  *float64
		}{{"start", &w.Start}, {"end", &w.End}} {
			if !present(it[f.name]) || it[f.name][0] == '"' || json.Unmarshal(it[f.name], f.dst) != nil {
				return nil, sotto.Invalid("bad_request", p(f.name), "%s must be a number of seconds", p(f.name))
			}
		}
		for _, k := range [...]string{"score", "probability"} {
			if present(it[k]) {
				var x float64
				if it[k][0] == '"' || json.Unmarshal(it[k], &x) != nil {
					return nil, sotto.Invalid("bad_request", p(k), "%s must be a number", p(k))
				}
				w.Score = &x
				break
			}
		}
	}
	return out, nil
}
