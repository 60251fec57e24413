package server

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/voicelib"
	"github.com/sottolabs/sotto/tts"
)

// The voice library endpoints: POST /v1/audio/voices saves a user voice,
// GET/PATCH/DELETE /v1/audio/voices/{id} read, change and delete one, and
// GET /v1/audio/voices lists them after the builtin voices.

func (s *Server) library() (*voicelib.Library, error) {
	if s.cfg.Voices == nil {
		return nil, sotto.NotImplemented("capability_unavailable", "this server has no voice library (sotto-cli serve keeps one in its data directory)")
	}
	return s.cfg.Voices, nil
}

// checkSavedVoice vets a voice against its model: the model serves speech,
// the base voice is one of its voices, style instructions only for the
// voice-cloning model with the controllable recipe, and a reference
// recording exactly when the model clones.
func (s *Server) checkSavedVoice(ctx context.Context, v voicelib.Voice) error {
	m, err := s.resolveModel(v.Model, pathSpeech)
	if err != nil {
		return err
	}
	cloner := isCloner(m)
	if v.Instructions != "" && (!cloner || v.CloneRecipe == tts.RecipeUltimate) {
		if cloner {
			return sotto.Invalid("bad_request", "instructions", "the ultimate clone recipe has no style control; save instructions with clone_recipe controllable")
		}
		return sotto.Invalid("bad_request", "instructions", "%s takes no speaking-style instructions; describe the voice in design with base_voice builtin:design", m.ID)
	}
	if v.CloneRecipe != "" {
		if err := s.checkCloneRecipe(m, "", v.CloneRecipe); err != nil {
			return err
		}
	}
	switch {
	case cloner && v.Reference == nil:
		return sotto.Invalid("bad_request", "reference_audio", "a voice of %s needs a reference recording in reference_audio (base64 of an audio file with at least %.0f s of speech)", m.ID, tts.MinReferenceSpeech)
	case !cloner && v.Reference != nil:
		return sotto.Invalid("bad_request", "reference_audio", "%s does not clone voices and takes no reference_audio; save the voice for the voice-cloning model", m.ID)
	}
	if v.BaseVoice == tts.VoiceDesign {
		return nil
	}
	b, release, err := acquire[tts.Backend](ctx, s, m.ID, "synthesize speech")
	if err != nil {
		return err
	}
	defer release()
	if _, ok := tts.FindVoice(b, v.BaseVoice); !ok {
		return sotto.Invalid("bad_request", "base_voice", "%q is not a voice of %s (GET /v1/audio/voices lists them)", v.BaseVoice, m.ID)
	}
	return nil
}

func (s *Server) handleCreateVoice(w http.ResponseWriter, r *http.Request) {
	lib, err := s.library()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var v voicelib.Voice
	var in struct {
		voicelib.Patch
		Model          string  `json:"model"`
		ReferenceAudio *string `json:"reference_audio"`
	}
	if err := decodeJSON(r, &in, true, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	if in.ReferenceAudio != nil {
		if v.Reference, err = referenceFrom(r.Context(), *in.ReferenceAudio); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	v.Model = in.Model
	deref := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	v.Name, v.BaseVoice, v.Design = deref(in.Name), deref(in.BaseVoice), deref(in.Design)
	v.Instructions, v.Language, v.CloneRecipe = deref(in.Instructions), deref(in.Language), deref(in.CloneRecipe)
	v.Speed = 1
	if in.Speed != nil {
		v.Speed = *in.Speed
	}
	if in.Pitch != nil {
		v.Pitch = *in.Pitch
	}
	if err := v.Validate(); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := s.checkSavedVoice(r.Context(), v); err != nil {
		s.writeError(w, r, err)
		return
	}
	saved, err := lib.Create(r.Context(), v)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, saved)
}

func (s *Server) handleGetVoice(w http.ResponseWriter, r *http.Request) {
	lib, err := s.library()
	if err == nil {
		var v voicelib.Voice
		if v, err = lib.Get(r.Context(), r.PathValue("id")); err == nil {
			writeJSON(w, http.StatusOK, v)
			return
		}
	}
	s.writeError(w, r, err)
}

func (s *Server) handleUpdateVoice(w http.ResponseWriter, r *http.Request) {
	lib, err := s.library()
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var in struct {
		voicelib.Patch
		ReferenceAudio *string `json:"reference_audio"`
	}
	if err := decodeJSON(r, &in, true, ""); err != nil {
		s.writeError(w, r, err)
		return
	}
	p := in.Patch
	if in.ReferenceAudio != nil {
		if p.Reference, err = referenceFrom(r.Context(), *in.ReferenceAudio); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	v, err := lib.Update(r.Context(), r.PathValue("id"), p, func(v voicelib.Voice) error {
		return s.checkSavedVoice(r.Context(), v)
	})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handleDeleteVoice(w http.ResponseWriter, r *http.Request) {
	lib, err := s.library()
	if err == nil {
		id := r.PathValue("id")
		if err = lib.Delete(r.Context(), id); err == nil {
			writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "voice.deleted", "deleted": true})
			return
		}
	}
	s.writeError(w, r, err)
}

// userVoices resolves the user:<uuid> voices of parts to their saved
// settings: the base voice (and design text), and the saved speed, pitch
// and language where the request did not set them. A voice of another
// model is a 400; an unknown one a 404.
func (s *Server) userVoices(ctx context.Context, m ModelInfo, parts []speechPart) error {
	for i := range parts {
		p := &parts[i]
		if !strings.HasPrefix(p.voice, "user:") {
			continue
		}
		lib, err := s.library()
		if err != nil {
			return err
		}
		v, err := lib.Get(ctx, p.voice)
		if err != nil {
			return err
		}
		if v.Model != m.ID {
			return sotto.Invalid("bad_request", voiceParam(*p), "saved voice %s belongs to %s; send it with that model", v.ID, v.Model)
		}
		p.voice = v.BaseVoice
		if v.BaseVoice == tts.VoiceDesign && p.instructions == "" {
			p.instructions = v.Design
		}
		if !p.speedSet {
			p.speed = v.Speed
		}
		if p.language == "" {
			p.language = v.Language
		}
		p.pitch = v.Pitch
		p.saved = v.ID
		p.savedRecipe = v.CloneRecipe
		if p.instructions == "" && !p.disableStyle {
			p.instructions = v.Instructions
			p.savedStyle = v.Instructions != ""
		}
		if v.Reference != nil {
			p.reference = v.Reference.Profile
		}
	}
	return nil
}

// isCloner reports whether m is a voice-cloning model.
func isCloner(m ModelInfo) bool { return slices.Contains(m.Features, speechFeatureCloning) }

// maxReferenceSeconds bounds a reference recording.
const maxReferenceSeconds = 120

// referenceFrom decodes reference_audio (base64 of an audio file in any
// format package audio reads), measures the voice in it, and returns what
// the library stores: the recording as 16 kHz mono WAV and the profile.
// Errors name param reference_audio: 400 for bad base64, an undecodable
// file or more than 120 s, 422 insufficient_speech for under 3 s of speech.
func referenceFrom(ctx context.Context, b64 string) (*voicelib.Reference, error) {
	const param = "reference_audio"
	if i := strings.Index(b64, ";base64,"); strings.HasPrefix(b64, "data:") && i > 0 {
		b64 = b64[i+len(";base64,"):] // a data: URL
	}
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return nil, sotto.Invalid("bad_request", param, "reference_audio is not base64: %v", err)
	}
	if len(raw) == 0 {
		return nil, sotto.Invalid("bad_request", param, "reference_audio is empty")
	}
	a, _, err := audio.Decode(ctx, bytes.NewReader(raw), audio.Options{})
	if err != nil {
		if e, ok := errors.AsType[*sotto.Error](err); ok && e.Param == audio.ParamFile {
			c := *e
			c.Param = param
			return nil, &c
		}
		return nil, err
	}
	secs := float64(len(a.Samples)) / float64(a.Rate())
	if secs > maxReferenceSeconds {
		return nil, sotto.Invalid("bad_request", param, "reference_audio is %.0f s long; send at most %d s", secs, maxReferenceSeconds)
	}
	prof, err := tts.AnalyzeVoice(ctx, a.Samples, a.Rate(), param)
	if err != nil {
		return nil, err
	}
	pj, err := json.Marshal(prof)
	if err != nil {
		return nil, err
	}
	return &voicelib.Reference{Audio: audio.EncodeWAV(a.Samples, a.Rate()), Profile: pj,
		Seconds: roundMs(secs), SpeechSeconds: roundMs(prof.SpeechSeconds)}, nil
}

func roundMs(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
