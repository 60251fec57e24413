package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/language"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/segment"
	"github.com/sottolabs/sotto/tts"
)

// speechSegment is one entry of segments[]; nil fields inherit the
// request's top-level value.
type speechSegment struct {
	Input        *string  `json:"input"`
	Voice        *string  `json:"voice"`
	Instructions *string  `json:"instructions"`
	DisableStyle *bool    `json:"disable_style"`
	Speed        *float64 `json:"speed"`
	Language     *string  `json:"language"`
}

// speechRequest is the JSON body of POST /v1/audio/speech (spec part 4).
// Fields the engines here ignore (sampling and diffusion controls) are still
// range-checked, as the spec requires.
type speechRequest struct {
	Model             string           `json:"model"`
	Voice             string           `json:"voice"`
	Input             *string          `json:"input"`
	Segments          *[]speechSegment `json:"segments"`
	ResponseFormat    string           `json:"response_format"`
	StreamFormat      string           `json:"stream_format"`
	Language          string           `json:"language"`
	Seed              *int64           `json:"seed"`
	SampleRate        *int             `json:"sample_rate"`
	GuidanceScale     *float64         `json:"guidance_scale"`
	InferenceSteps    *int             `json:"inference_steps"`
	Temperature       *float64         `json:"temperature"`
	TopP              *float64         `json:"top_p"`
	TopK              *int             `json:"top_k"`
	RepetitionPenalty *float64         `json:"repetition_penalty"`
	RetryBadcase      *bool            `json:"retry_badcase"`
	CloneRecipe       *string          `json:"clone_recipe"`
	Instructions      *string          `json:"instructions"`
	DisableStyle      *bool            `json:"disable_style"`
	Speed             *float64         `json:"speed"`
	UserMarks         json.RawMessage  `json:"user_marks"`
	PhoneticSpans     json.RawMessage  `json:"phonetic_spans"`
	ControlPolicy     json.RawMessage  `json:"control_policy"`
	StyleInstruction  json.RawMessage  `json:"style_instruction"`
	XSotto            *speechXSotto    `json:"x_sotto"`
}

// speechXSotto holds Sotto's own request options.
type speechXSotto struct {
	// Marks, default true, sends word timings as x_sotto.speech.marks
	// events in an SSE stream.
	Marks *bool `json:"marks"`
}

// speechPart is one validated piece of a request: a segment with every
// inherited value resolved.
type speechPart struct {
	input, voice, instructions, language string
	disableStyle                         bool
	speed, pitch                         float64
	speedSet                             bool   // speed came from the request
	saved                                string // the user:<uuid> voice resolved into voice, or ""
	savedRecipe                          string // the saved voice's preferred clone recipe
	savedStyle                           bool   // instructions came from the saved voice
	reference                            []byte // the saved voice's reference profile (JSON), for a cloning model
	recipe                               string // the clone recipe in force for a part with a reference
	param                                string // "input" or "segments[i]"
}

// speechFeatureCloning marks a catalog model that clones voices; the
// clone_recipe errors name it.
const speechFeatureCloning = "voice_cloning"

// parseSpeech validates every field that needs no loaded model.
func (s *Server) parseSpeech(r *http.Request) (*speechRequest, ModelInfo, []speechPart, error) {
	var req speechRequest
	if err := decodeJSON(r, &req, true, ""); err != nil {
		return nil, ModelInfo{}, nil, err
	}
	if req.StyleInstruction != nil {
		return nil, ModelInfo{}, nil, sotto.Invalid("bad_request", "style_instruction",
			"style_instruction was removed; send the speaking style in instructions")
	}
	if req.Model == "" {
		return nil, ModelInfo{}, nil, sotto.Invalid("bad_request", "model", "field \"model\" is required: a speech model ID (GET /v1/models)")
	}
	m, err := s.resolveModel(req.Model, pathSpeech)
	if err != nil {
		return nil, m, nil, err
	}
	if req.Voice == "" {
		return nil, m, nil, sotto.Invalid("bad_request", "voice", "field \"voice\" is required (GET /v1/audio/voices lists them; builtin:auto lets the model choose)")
	}
	if err := checkSpeechRanges(&req); err != nil {
		return nil, m, nil, err
	}
	parts, err := speechParts(&req)
	if err != nil {
		return nil, m, nil, err
	}
	if err := checkSpeechLength(parts, req.StreamFormat == "sse"); err != nil {
		return nil, m, nil, err
	}
	if req.CloneRecipe != nil {
		voice := req.Voice
		if voice == "" || voice == tts.VoiceDesign {
			voice = tts.VoiceAuto // no saved voice
		}
		if err := s.checkCloneRecipe(m, voice, *req.CloneRecipe); err != nil {
			return nil, m, nil, err
		}
	}
	if req.SampleRate != nil && !s.cfg.Desktop {
		return nil, m, nil, sotto.Invalid("bad_request", "sample_rate",
			"the headless service speaks at the voice's native rate; leave sample_rate out")
	}
	if err := s.userVoices(r.Context(), m, parts); err != nil {
		return nil, m, nil, err
	}
	cloner := isCloner(m)
	for i := range parts {
		p := &parts[i]
		if err := checkSpeechLanguage(m, p.language); err != nil {
			return nil, m, nil, err
		}
		if cloner && req.CloneRecipe != nil && p.reference == nil {
			return nil, m, nil, sotto.Invalid("clone_recipe_requires_saved_voice", voiceParam(*p),
				"clone_recipe needs a saved user voice with a reference recording for every segment; %s has none", p.voice)
		}
		if cloner && p.reference != nil {
			p.recipe = p.savedRecipe
			if req.CloneRecipe != nil {
				p.recipe = *req.CloneRecipe
			}
			if p.recipe == "" {
				p.recipe = tts.RecipeControllable
			}
			if p.recipe == tts.RecipeUltimate && p.instructions != "" {
				if p.savedStyle && req.CloneRecipe != nil {
					p.instructions = "" // the saved style yields to an explicit ultimate
				} else {
					return nil, m, nil, sotto.Invalid("bad_request", "instructions",
						"clone_recipe ultimate has no style control; send instructions with clone_recipe controllable")
				}
			}
			continue
		}
		if p.instructions != "" && p.voice != tts.VoiceDesign && (p.saved == "" || !p.savedStyle) {
			return nil, m, nil, sotto.Invalid("bad_request", "instructions",
				"%s takes no speaking-style instructions with a specific voice; use voice builtin:design to describe a voice", m.ID)
		}
		if p.voice == tts.VoiceDesign && p.instructions == "" {
			return nil, m, nil, sotto.Invalid("bad_request", "instructions",
				"voice builtin:design needs instructions describing the voice (e.g. \"a slow, deep male voice with a British accent\")")
		}
	}
	return &req, m, parts, nil
}

// checkSpeechRanges checks the enumerations and numeric ranges of spec
// part 4 and part 8, each a 400 naming its field.
func checkSpeechRanges(req *speechRequest) error {
	switch req.ResponseFormat {
	case "", "wav":
	default:
		return sotto.Invalid("bad_request", "response_format", "response_format %q is not supported: only wav", req.ResponseFormat)
	}
	switch req.StreamFormat {
	case "", "audio", "sse":
	default:
		return sotto.Invalid("bad_request", "stream_format", "stream_format must be audio or sse, not %q", req.StreamFormat)
	}
	bad := func(name, rng string, v float64) error {
		return sotto.Invalid("bad_request", name, "%s %v is out of range (%s)", name, v, rng)
	}
	within := func(p *float64, lo, hi float64) bool {
		return p == nil || (!math.IsNaN(*p) && *p >= lo && *p <= hi)
	}
	switch {
	case !within(req.Temperature, 0.1, 2):
		return bad("temperature", "0.1 to 2", *req.Temperature)
	case !within(req.TopP, 0.1, 1):
		return bad("top_p", "0.1 to 1", *req.TopP)
	case req.TopK != nil && (*req.TopK < 1 || *req.TopK > 100):
		return bad("top_k", "1 to 100", float64(*req.TopK))
	case !within(req.RepetitionPenalty, 1, math.MaxFloat64):
		return bad("repetition_penalty", "at least 1", *req.RepetitionPenalty)
	case !within(req.GuidanceScale, 0, math.MaxFloat64):
		return bad("guidance_scale", "at least 0", *req.GuidanceScale)
	case req.InferenceSteps != nil && *req.InferenceSteps < 1:
		return bad("inference_steps", "at least 1", float64(*req.InferenceSteps))
	case req.SampleRate != nil && *req.SampleRate <= 0:
		return bad("sample_rate", "a positive rate in Hz", float64(*req.SampleRate))
	}
	return checkSpeed(req.Speed, "speed")
}

// Speed range: 1 is natural; the engines here go from a quarter to four
// times the natural rate.
const minSpeed, maxSpeed = 0.25, 4.0

func checkSpeed(p *float64, param string) error {
	if p != nil && (math.IsNaN(*p) || *p < minSpeed || *p > maxSpeed) {
		return sotto.Invalid("bad_request", param, "%s %v is out of range (%g to %g; 1 is natural)", param, *p, minSpeed, maxSpeed)
	}
	return nil
}

// maxSpeechText and maxSpeechTextSSE bound the text of one speech request
// (input, or every segment's input together). A WAV response must be whole
// before it is sent (its header states the length): about 3 KB of audio per
// byte of English text, so 64 KiB is already about 200 MB and an hour of
// speech. An SSE response is sent sentence by sentence and may be longer.
const (
	maxSpeechText    = 64 << 10
	maxSpeechTextSSE = 1 << 20
)

// checkSpeechLength refuses text longer than the response can carry with
// bounded memory: 400 bad_request naming input (or segments).
func checkSpeechLength(parts []speechPart, sse bool) error {
	n := 0
	for _, p := range parts {
		n += len(p.input)
	}
	limit, how := maxSpeechText, " for a WAV response; stream_format sse takes up to 1 MiB"
	if sse {
		limit, how = maxSpeechTextSSE, ""
	}
	if n <= limit {
		return nil
	}
	param := textParam(parts)
	return sotto.Invalid("bad_request", param, "%s holds %d bytes of text; at most %d%s (split longer text into several requests)", param, n, limit, how)
}

// textParam names the field that holds the text of parts as a whole:
// "input", or "segments" when the request sent segments.
func textParam(parts []speechPart) string {
	if len(parts) == 1 && parts[0].param == "input" {
		return "input"
	}
	return "segments"
}

// speechParts resolves input or segments[] into parts with every inherited
// value filled in.
func speechParts(req *speechRequest) ([]speechPart, error) {
	if req.Input != nil && req.Segments != nil {
		return nil, sotto.Invalid("bad_request", "input", "send either input or segments, not both")
	}
	if req.Input == nil && req.Segments == nil {
		return nil, sotto.Invalid("bad_request", "input", "field \"input\" (text) or a non-empty \"segments\" is required")
	}
	top := speechPart{voice: req.Voice, language: req.Language, speed: 1, param: "input"}
	if req.Instructions != nil {
		top.instructions = *req.Instructions
	}
	if req.DisableStyle != nil {
		top.disableStyle = *req.DisableStyle
	}
	if req.Speed != nil {
		top.speed, top.speedSet = *req.Speed, true
	}
	if top.disableStyle && top.instructions != "" {
		return nil, sotto.Invalid("conflicting_speech_instructions", "disable_style", "disable_style true cannot be combined with non-empty instructions")
	}
	if req.Input != nil {
		if strings.TrimSpace(*req.Input) == "" {
			return nil, sotto.Invalid("bad_request", "input", "field \"input\" is empty")
		}
		top.input = *req.Input
		return []speechPart{top}, nil
	}
	if len(*req.Segments) == 0 {
		return nil, sotto.Invalid("bad_request", "segments", "segments must have at least one entry")
	}
	parts := make([]speechPart, 0, len(*req.Segments))
	for i, sg := range *req.Segments {
		p := top
		p.param = fmt.Sprintf("segments[%d]", i)
		if sg.Input == nil || strings.TrimSpace(*sg.Input) == "" {
			return nil, sotto.Invalid("bad_request", p.param+".input", "%s.input is missing or empty", p.param)
		}
		p.input = *sg.Input
		if sg.Voice != nil && *sg.Voice != "" {
			p.voice = *sg.Voice
		}
		if sg.Instructions != nil && *sg.Instructions != "" {
			p.instructions = *sg.Instructions
		}
		if sg.DisableStyle != nil && *sg.DisableStyle {
			if sg.Instructions != nil && *sg.Instructions != "" {
				return nil, sotto.Invalid("conflicting_speech_instructions", p.param+".disable_style",
					"%s: disable_style true cannot be combined with non-empty instructions", p.param)
			}
			p.disableStyle, p.instructions = true, ""
		}
		if sg.Speed != nil {
			if err := checkSpeed(sg.Speed, p.param+".speed"); err != nil {
				return nil, err
			}
			p.speed, p.speedSet = *sg.Speed, true
		}
		if sg.Language != nil && *sg.Language != "" {
			p.language = *sg.Language
		}
		parts = append(parts, p)
	}
	return parts, nil
}

// checkSpeechLanguage validates a language field: "" and "auto" choose
// automatically; a tag must parse (400) and be among the model's languages
// (422 language_unsupported: change the model).
func checkSpeechLanguage(m ModelInfo, tag string) error {
	if tag == "" || tag == "auto" {
		return nil
	}
	if _, err := language.Parse(tag); err != nil {
		return sotto.Invalid("bad_request", "language", "language %q is not a BCP 47 tag", tag)
	}
	if slices.Contains(m.Languages, "*") || languageIn(tag, m.Languages) {
		return nil
	}
	return sotto.Unsatisfiable("language_unsupported", "language",
		"%s does not speak %q (its languages: %s); choose another speech model", m.ID, tag, strings.Join(m.Languages, ", "))
}

// checkCloneRecipe applies the clone_recipe rules: only the cloning model
// takes it (another model answers clone_recipe_requires_<its name>, e.g.
// clone_recipe_requires_clone for Sotto/Clone), and only with a saved user
// voice (builtin:auto and every other builtin voice answer
// clone_recipe_requires_saved_voice). voice "" skips the voice rule.
func (s *Server) checkCloneRecipe(m ModelInfo, voice, recipe string) error {
	if recipe != "controllable" && recipe != "ultimate" {
		return sotto.Invalid("bad_request", "clone_recipe", "clone_recipe must be controllable or ultimate, not %q", recipe)
	}
	cloner := ""
	for _, c := range s.models.Infos() {
		if c.Serves(pathSpeech) && slices.Contains(c.Features, speechFeatureCloning) {
			cloner = c.ID
			break
		}
	}
	if cloner == "" || cloner != m.ID {
		name := "voice_cloning_model"
		if cloner != "" {
			name = strings.ToLower(cloner[strings.LastIndex(cloner, "/")+1:])
		}
		return sotto.Invalid("clone_recipe_requires_"+name, "clone_recipe",
			"clone_recipe applies to a voice-cloning model only; %s does not clone voices", m.ID)
	}
	if voice != "" && !strings.HasPrefix(voice, "user:") {
		return sotto.Invalid("clone_recipe_requires_saved_voice", "clone_recipe",
			"clone_recipe needs a saved user voice with a reference recording (POST /v1/audio/voices), not %s", voice)
	}
	return nil
}

// handleSpeech serves POST /v1/audio/speech: validation, then the model's
// backend speaks each part in order; one WAV file, or SSE deltas whose first
// carries the WAV header.
func (s *Server) handleSpeech(w http.ResponseWriter, r *http.Request) {
	req, m, parts, err := s.parseSpeech(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	b, release, err := acquire[tts.Backend](r.Context(), s, m.ID, "synthesize speech")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	defer release()
	plan, err := planSpeech(r.Context(), b, parts, req.RetryBadcase != nil && *req.RetryBadcase)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rate := plan[0].voice.SampleRate
	if req.SampleRate != nil && *req.SampleRate != rate {
		s.writeError(w, r, sotto.Invalid("bad_request", "sample_rate",
			"voice %s speaks at %d Hz; sample_rate must be left out or equal it (no resampling)", plan[0].voice.ID, rate))
		return
	}
	w.Header().Set("X-Sotto-Voice", plan[0].voice.ID)
	if d := plan[0].design; d != nil {
		if j, err := json.Marshal(d); err == nil {
			w.Header().Set("X-Sotto-Voice-Design", string(j))
		}
	}
	if req.StreamFormat == "sse" {
		marks := req.XSotto == nil || req.XSotto.Marks == nil || *req.XSotto.Marks
		s.streamSpeech(w, r, b, plan, rate, marks)
		return
	}
	pcm := make([]byte, 44, 1<<16)
	err = speakPlan(r.Context(), b, plan, rate, false, func(_ int, c tts.Chunk) error {
		pcm = audio.AppendPCM16(pcm, c.Samples)
		return nil
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	copy(pcm, audio.WAVHeader(rate, len(pcm)-44))
	if c := cloneReport(plan); c != nil {
		if j, err := json.Marshal(c); err == nil {
			w.Header().Set("X-Sotto-Clone", string(j))
		}
	}
	w.Header().Set("Content-Type", "audio/wav")
	w.Header().Set("Content-Length", strconv.Itoa(len(pcm)))
	w.WriteHeader(http.StatusOK)
	w.Write(pcm)
}

// plannedPart is a part with its voice chosen and options set.
type plannedPart struct {
	text   string
	voice  tts.Voice
	opts   tts.Options
	design *tts.Design
	// clone, for a saved voice with a reference on the cloning model, is
	// the converted voice that speaks the part instead of the model.
	clone *tts.ClonedVoice
}

// speakable reports whether r can be read aloud: a letter or a digit
// (punctuation, symbols and emoji alone give no speech).
func speakable(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// pickAutoVoice resolves builtin:auto for part p: with a language, the
// model's voice for it; without one, the voice for the language of the
// part's text (segment.DetectLanguage, as the text's segmentation guesses
// it), which then also drives its normalization. When the text shows no
// language, or the model has no voice for a Latin-script guess (a guess
// from a few function words), the model's default voice speaks it; text
// without a Latin letter in a language no voice speaks (a reliable guess,
// from the script) is 422 language_unsupported rather than silence or
// another language's letters.
func pickAutoVoice(b tts.Backend, p speechPart, lang string) (tts.Voice, string, error) {
	if lang != "" {
		v, err := tts.PickVoice(b, lang)
		return v, lang, err
	}
	if tag, sure := segment.DetectLanguage(p.input); sure && tag != "" {
		v, err := tts.PickVoice(b, tag)
		if err == nil {
			return v, tag, nil
		}
		if !strings.ContainsFunc(p.input, func(r rune) bool { return r < 0x80 && unicode.IsLetter(r) }) {
			param := p.param
			if param != "input" {
				param += ".input"
			}
			return tts.Voice{}, "", sotto.Unsatisfiable("language_unsupported", param,
				"%s reads as %q, which no voice of this model speaks; choose another speech model (or name the language)", param, tag)
		}
	}
	v, err := tts.PickVoice(b, "")
	return v, "", err
}

// planSpeech picks each part's voice: builtin:auto the model's voice for
// the part's language, builtin:design the voice the instructions describe,
// and for a saved voice with a reference on the cloning model a cloned
// voice (retry sets its retry_badcase judge).
func planSpeech(ctx context.Context, b tts.Backend, parts []speechPart, retry bool) ([]plannedPart, error) {
	if !slices.ContainsFunc(parts, func(p speechPart) bool { return strings.ContainsFunc(p.input, speakable) }) {
		param := textParam(parts)
		return nil, sotto.Invalid("bad_request", param, "%s has nothing to speak (no letter or digit)", param)
	}
	out := make([]plannedPart, len(parts))
	for i, p := range parts {
		lang := p.language
		if lang == "auto" {
			lang = ""
		}
		pp := plannedPart{text: p.input, opts: tts.Options{Language: lang, Speed: p.speed, Pitch: p.pitch}}
		if cl, ok := b.(tts.Cloner); ok && p.reference != nil {
			if err := planClone(ctx, b, cl, p, lang, retry, &pp); err != nil {
				return nil, err
			}
			out[i] = pp
			continue
		}
		var err error
		switch p.voice {
		case tts.VoiceAuto:
			pp.voice, pp.opts.Language, err = pickAutoVoice(b, p, lang)
		case tts.VoiceDesign:
			var d tts.Design
			d, err = tts.DesignVoice(b, p.instructions, lang)
			pp.voice, pp.design = d.Voice, &d
			pp.opts.Pitch, pp.opts.Variant = pp.opts.Pitch+d.Pitch, d.Variant
			if d.Speed != 0 && !p.speedSet && p.saved == "" {
				pp.opts.Speed = d.Speed
			}
		default:
			v, ok := tts.FindVoice(b, p.voice)
			if !ok {
				return nil, sotto.Invalid("bad_request", voiceParam(p), "voice %q is not a voice of this model (GET /v1/audio/voices lists them)", p.voice)
			}
			pp.voice = v
		}
		if err != nil {
			return nil, err
		}
		pp.opts.Voice = pp.voice.ID
		out[i] = pp
	}
	return out, nil
}

// planClone plans a part spoken by a saved voice with a reference: the
// base voice (a builtin:design base chosen from its design text), with the
// controllable recipe the pitch and speed words of the instructions, then
// the clone of the reference.
func planClone(ctx context.Context, b tts.Backend, cl tts.Cloner, p speechPart, lang string, retry bool, pp *plannedPart) error {
	var prof tts.VoiceProfile
	if err := json.Unmarshal(p.reference, &prof); err != nil || !prof.Valid() {
		return fmt.Errorf("server: saved voice %s: stored reference profile unreadable: %v", p.saved, err)
	}
	co := tts.CloneOptions{Reference: prof, Recipe: p.recipe, BaseVoice: p.voice, Language: lang, RetryBadcase: retry}
	if p.recipe == tts.RecipeControllable && p.instructions != "" {
		d, err := tts.DesignVoice(b, p.instructions, lang)
		if err != nil {
			return err
		}
		pp.design = &d
		if p.voice == tts.VoiceDesign {
			co.BaseVoice = d.VoiceID
		}
		co.Variant = d.Variant
		pp.opts.Pitch += d.Pitch
		if d.Speed != 0 {
			pp.opts.Speed *= d.Speed
		}
	}
	if co.BaseVoice == tts.VoiceDesign {
		co.BaseVoice = "" // a design base with no design left: the default voice
	}
	cv, err := cl.Clone(ctx, co)
	if err != nil {
		return err
	}
	pp.clone, pp.voice = cv, cv.Voice()
	pp.opts.Voice = pp.voice.ID
	return nil
}

func voiceParam(p speechPart) string {
	if p.param == "input" {
		return "voice"
	}
	return p.param + ".voice"
}

// speakPlan speaks every part in order at rate Hz (parts whose voice has
// another rate are resampled to it); emit gets each chunk with the index of
// its part. Marks, when asked for, are shifted to the time since the start
// of the whole speech.
func speakPlan(ctx context.Context, b tts.Backend, plan []plannedPart, rate int, marks bool, emit func(int, tts.Chunk) error) error {
	emitted := 0 // samples at rate
	for i, p := range plan {
		p.opts.Marks = marks
		offset := float64(emitted) / float64(rate)
		sb := b
		if p.clone != nil {
			sb = p.clone
		}
		err := tts.Speak(ctx, sb, p.text, p.opts, func(c tts.Chunk) error {
			if c.Rate != rate && len(c.Samples) > 0 {
				out, err := audio.Resample(nil, c.Samples, c.Rate, rate)
				if err != nil {
					return err
				}
				c.Samples, c.Rate = out, rate
			}
			for k := range c.Marks {
				c.Marks[k].Start = math.Round((c.Marks[k].Start+offset)*1000) / 1000
				c.Marks[k].End = math.Round((c.Marks[k].End+offset)*1000) / 1000
			}
			emitted += len(c.Samples)
			return emit(i, c)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Events of a speech stream (spec part 6 item 1).
const (
	eventSpeechDelta = "speech.audio.delta"
	eventSpeechDone  = "speech.audio.done"
	// eventSpeechMarks is Sotto's own event: word timings of the audio
	// of the delta before it.
	eventSpeechMarks = "x_sotto.speech.marks"
)

type speechMarks struct {
	Type string `json:"type"`
	// Segment is the index of the part (0 for input, i for segments[i])
	// whose input the source bytes refer to.
	Segment int        `json:"segment"`
	Marks   []tts.Mark `json:"marks"`
	// Source is where the timings come from: "engine" (the engine's own
	// phone timings) or "alignment" (forced alignment of the audio).
	Source string `json:"source,omitempty"`
}

type speechDelta struct {
	Type  string `json:"type"`
	Audio string `json:"audio"` // base64; the first delta starts with the WAV header
}

type speechDone struct {
	Type   string         `json:"type"`
	XSotto speechDoneInfo `json:"x_sotto"`
}

type speechDoneInfo struct {
	SampleRate int     `json:"sample_rate"`
	Seconds    float64 `json:"seconds"`
	Voice      string  `json:"voice"`
	// Clone reports the voice conversion, for a cloned voice (as the
	// X-Sotto-Clone header of a WAV response).
	Clone *tts.CloneReport `json:"clone,omitempty"`
}

// cloneReport returns the report of the first cloned part of plan, or nil.
func cloneReport(plan []plannedPart) *tts.CloneReport {
	for _, p := range plan {
		if p.clone != nil {
			r := p.clone.Report()
			return &r
		}
	}
	return nil
}

// sendMarks sends the x_sotto.speech.marks event of chunk c of part.
func sendMarks(sse *sseWriter, part int, c tts.Chunk) error {
	ms := c.Marks
	if ms == nil {
		ms = []tts.Mark{}
	}
	return sse.event(eventSpeechMarks, speechMarks{Type: eventSpeechMarks, Segment: part, Marks: ms, Source: c.MarksSource})
}

// streamSpeech sends each sentence's audio as a speech.audio.delta as soon
// as it is synthesized; the first delta carries a WAV header whose sizes are
// the streaming placeholders (the length is not known yet). With marks on,
// each delta is followed by an x_sotto.speech.marks event (at once for the
// engine's own timings, after the forced alignment otherwise, which never
// holds the audio back): the words of that
// audio, their times from the start of the speech, and the bytes of the
// part's input (input, or segments[i].input) each reads.
func (s *Server) streamSpeech(w http.ResponseWriter, r *http.Request, b tts.Backend, plan []plannedPart, rate int, marks bool) {
	sse := newSSE(w)
	samples := 0
	err := speakPlan(r.Context(), b, plan, rate, marks, func(part int, c tts.Chunk) error {
		if len(c.Samples) == 0 { // the marks of the delta before (tts.Chunk.MarksFollow)
			return sendMarks(sse, part, c)
		}
		var raw []byte
		if samples == 0 {
			raw = audio.WAVHeader(rate, -1)
		}
		raw = audio.AppendPCM16(raw, c.Samples)
		samples += len(c.Samples)
		if err := sse.event(eventSpeechDelta, speechDelta{Type: eventSpeechDelta, Audio: base64.StdEncoding.EncodeToString(raw)}); err != nil {
			return err
		}
		if !marks || c.MarksFollow {
			return nil
		}
		return sendMarks(sse, part, c)
	})
	if err == nil && samples == 0 {
		err = sse.event(eventSpeechDelta, speechDelta{Type: eventSpeechDelta, Audio: base64.StdEncoding.EncodeToString(audio.WAVHeader(rate, -1))})
	}
	if err == nil {
		err = sse.event(eventSpeechDone, speechDone{Type: eventSpeechDone, XSotto: speechDoneInfo{
			SampleRate: rate, Seconds: math.Round(float64(samples)/float64(rate)*1000) / 1000, Voice: plan[0].voice.ID,
			Clone: cloneReport(plan)}})
		if err == nil {
			return
		}
	}
	s.streamFailed(w, r, sse, err, "speech")
}

// streamFailed ends an SSE stream that failed: an ordinary error response
// when nothing was sent yet, else a terminal "error" event (nothing when the
// client is gone).
func (s *Server) streamFailed(w http.ResponseWriter, r *http.Request, sse *sseWriter, err error, what string) {
	if !sse.started {
		s.writeError(w, r, err)
		return
	}
	if r.Context().Err() != nil {
		s.log.Debug(what+" stream ended by the client", "id", requestID(r.Context()), "err", err)
		return
	}
	resp := errorFor(err)
	level := slog.LevelDebug
	if resp.status >= 500 {
		level = slog.LevelError
	}
	s.log.Log(r.Context(), level, what+" stream failed", "id", requestID(r.Context()), "status", resp.status,
		"code", resp.body.Error.Code, "err", err)
	sse.event("error", sseError{Type: "error", Error: resp.body.Error})
}

// voiceEntry is one voice in GET /v1/audio/voices.
type voiceEntry struct {
	Object string `json:"object"`
	Model  string `json:"model"`
	tts.Voice
}

// handleVoices lists the builtin voices of every speech model that can run
// here (its program or files are present; listed from the program or the
// model's config without loading it when the models are a [VoiceLister]),
// then the saved user voices of the voice library. The query parameter
// model keeps the voices of that model only; it must be a speech model of
// the catalog (404 model_not_found, 400 model_capability_unsupported), and
// a model that cannot run here is answered with its error (503
// model_downloading …) rather than left out as in the full list.
func (s *Server) handleVoices(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	only := q.Get("model")
	if q.Has("model") {
		if only == "" {
			s.writeError(w, r, sotto.Invalid("bad_request", "model", "query parameter model is empty; name a speech model, or leave it out for every model's voices"))
			return
		}
		m, err := s.resolveModel(only, pathSpeech)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		only = m.ID
	}
	data := []voiceEntry{}
	for _, m := range s.models.Infos() {
		if !m.Serves(pathSpeech) || m.ExecutionLocation != "local" || only != "" && m.ID != only {
			continue
		}
		voices, err := s.modelVoices(r.Context(), m.ID)
		if err != nil {
			if only != "" {
				s.writeError(w, r, err)
				return
			}
			s.log.Debug("voices: model not available", "model", m.ID, "err", err)
			continue
		}
		for _, v := range voices {
			data = append(data, voiceEntry{Object: "voice", Model: m.ID, Voice: v})
		}
	}
	out := make([]any, 0, len(data))
	for _, v := range data {
		out = append(out, v)
	}
	if s.cfg.Voices != nil {
		saved, err := s.cfg.Voices.List(r.Context())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		for _, v := range saved {
			if only == "" || v.Model == only {
				out = append(out, v)
			}
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": out})
}

// modelVoices lists the builtin voices of speech model id: without loading
// it when the models are a [VoiceLister], else from the backend acquired
// for the moment.
func (s *Server) modelVoices(ctx context.Context, id string) ([]tts.Voice, error) {
	if vl, ok := s.models.(VoiceLister); ok {
		return vl.Voices(ctx, id)
	}
	release, loaded, err := s.models.Acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	defer release()
	if l, ok := loaded.(tts.Lister); ok {
		return l.Voices(), nil
	}
	return nil, nil
}
