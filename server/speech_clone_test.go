package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/internal/voicelib"
	"github.com/sottolabs/sotto/tts"
)

// tone returns a WAV file of secs seconds of a 200 Hz tone at 16 kHz.
func tone(secs float64) []byte {
	x := make([]float32, int(secs*16000))
	for i := range x {
		x[i] = float32(0.3 * math.Sin(2*math.Pi*200*float64(i)/16000))
	}
	return audio.EncodeWAV(x, 16000)
}

func TestCloneRecipeRules(t *testing.T) {
	ts := speechServer(t, false)
	for _, tc := range []struct {
		name        string
		body        map[string]any
		code, param string
	}{
		{"another model", map[string]any{"model": "Sotto/eSpeak", "voice": "builtin:auto", "clone_recipe": "ultimate"}, "clone_recipe_requires_clone", "clone_recipe"},
		{"builtin:auto", map[string]any{"model": "Sotto/Clone", "voice": "builtin:auto", "clone_recipe": "controllable"}, "clone_recipe_requires_saved_voice", "clone_recipe"},
		{"a builtin voice", map[string]any{"model": "Sotto/Clone", "voice": "builtin:kal16", "clone_recipe": "ultimate"}, "clone_recipe_requires_saved_voice", "clone_recipe"},
		{"bad recipe", map[string]any{"model": "Sotto/Clone", "voice": "builtin:auto", "clone_recipe": "perfect"}, "bad_request", "clone_recipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.body["input"] = "Hello."
			r := postSpeech(t, ts, tc.body)
			if r.status != 400 {
				t.Fatalf("status = %d (%s); want 400", r.status, r.body)
			}
			if e := r.envelope(t); e.Code != tc.code || e.Param != tc.param {
				t.Errorf("code, param = %q, %q; want %q, %q", e.Code, e.Param, tc.code, tc.param)
			}
		})
	}
	// Without clone_recipe the cloning model speaks its base voices as they are.
	if r := postSpeech(t, ts, map[string]any{"model": "Sotto/Clone", "voice": "builtin:auto", "input": "Hello."}); r.status != 200 || r.header.Get("X-Sotto-Clone") != "" {
		t.Errorf("builtin:auto on Sotto/Clone: %d %s, X-Sotto-Clone %q; want 200 and no conversion", r.status, r.body, r.header.Get("X-Sotto-Clone"))
	}
}

func TestCloneVoiceLibraryErrors(t *testing.T) {
	ts := speechServer(t, false)
	hdr := map[string]string{"Content-Type": "application/json"}
	b64 := base64.StdEncoding.EncodeToString
	for _, tc := range []struct {
		name        string
		body        map[string]any
		status      int
		code, param string
	}{
		{"no reference", map[string]any{}, 400, "bad_request", "reference_audio"},
		{"not base64", map[string]any{"reference_audio": "%%%"}, 400, "bad_request", "reference_audio"},
		{"empty", map[string]any{"reference_audio": ""}, 400, "bad_request", "reference_audio"},
		{"not audio", map[string]any{"reference_audio": b64([]byte("this is plain text, not a recording"))}, 400, "unsupported_audio_format", "reference_audio"},
		{"too little speech", map[string]any{"reference_audio": b64(tone(1.5))}, 422, "insufficient_speech", "reference_audio"},
		{"reference for a model that cannot clone", map[string]any{"model": "Sotto/Flite", "base_voice": "builtin:rms", "reference_audio": b64(tone(5))}, 400, "bad_request", "reference_audio"},
		{"ultimate with instructions", map[string]any{"reference_audio": b64(tone(5)), "clone_recipe": "ultimate", "instructions": "slow"}, 400, "bad_request", "instructions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := map[string]any{"name": "x", "model": "Sotto/Clone", "base_voice": "builtin:kal16"}
			for k, v := range tc.body {
				body[k] = v
			}
			r := do(t, ts, "POST", "/v1/audio/voices", jsonBody(body), hdr)
			if r.status != tc.status {
				t.Fatalf("status = %d (%s); want %d", r.status, r.body, tc.status)
			}
			if e := r.envelope(t); e.Code != tc.code || e.Param != tc.param {
				t.Errorf("code, param = %q, %q; want %q, %q (%s)", e.Code, e.Param, tc.code, tc.param, e.Message)
			}
		})
	}
}

func TestCloneSpeech(t *testing.T) {
	ts := speechServer(t, false)
	ref, err := os.ReadFile(testdata.Path(t, "speech", "en_lj_LJ001-0004_16k.wav"))
	if err != nil {
		t.Fatal(err)
	}
	hdr := map[string]string{"Content-Type": "application/json"}
	r := do(t, ts, "POST", "/v1/audio/voices", jsonBody(map[string]any{"name": "Reader", "model": "Sotto/Clone",
		"base_voice": "builtin:kal16", "reference_audio": base64.StdEncoding.EncodeToString(ref)}), hdr)
	var v voicelib.Voice
	if r.status != 201 || json.Unmarshal(r.body, &v) != nil || v.Reference == nil || v.Reference.SpeechSeconds < tts.MinReferenceSpeech || len(v.Reference.SHA256) != 64 {
		t.Fatalf("create: %d %s; want 201 with the reference's metadata", r.status, r.body)
	}
	speak := func(body map[string]any) (resp, tts.CloneReport) {
		t.Helper()
		body["model"], body["voice"] = "Sotto/Clone", v.ID
		if body["input"] == nil {
			body["input"] = "The boy was there when the sun rose."
		}
		r := postSpeech(t, ts, body)
		var c tts.CloneReport
		if r.status == 200 {
			if err := json.Unmarshal([]byte(r.header.Get("X-Sotto-Clone")), &c); err != nil {
				t.Fatalf("X-Sotto-Clone %q: %v", r.header.Get("X-Sotto-Clone"), err)
			}
		}
		return r, c
	}
	// The saved voice's preference (none: controllable) with its base voice.
	r, c := speak(map[string]any{})
	if r.status != 200 || c.Recipe != "controllable" || c.BaseVoice != "builtin:kal16" || c.F0Target <= 0 || c.Judged != 0 {
		t.Fatalf("clone: %d, report %+v; want controllable on kal16 with an F0 target, nothing judged", r.status, c)
	}
	// ultimate picks its own base voice; retry_badcase judges each sentence.
	r, c = speak(map[string]any{"clone_recipe": "ultimate", "retry_badcase": true, "input": "Kick the ball. Follow through."})
	if r.status != 200 || c.Recipe != "ultimate" || c.EQStrength != 1 || c.Judged != 2 || c.Retried != len(c.Reasons) {
		t.Fatalf("ultimate: %d %s, report %+v; want ultimate, full equalizer, 2 sentences judged", r.status, r.body, c)
	}
	if r, _ := speak(map[string]any{"clone_recipe": "ultimate", "instructions": "a slow voice"}); r.status != 400 || r.envelope(t).Param != "instructions" {
		t.Errorf("ultimate with instructions: %d %s; want 400 instructions", r.status, r.body)
	}
	// controllable keeps style control: "slow" makes it longer.
	plain, _ := speak(map[string]any{"clone_recipe": "controllable"})
	slow, _ := speak(map[string]any{"clone_recipe": "controllable", "instructions": "speak very slowly"})
	if slow.status != 200 || len(slow.body) < len(plain.body)*5/4 || !strings.Contains(slow.header.Get("X-Sotto-Voice-Design"), "speed") {
		t.Errorf("controllable + slow: %d, %d bytes vs %d, design %q; want ≥ 25 %% longer", slow.status, len(slow.body), len(plain.body), slow.header.Get("X-Sotto-Voice-Design"))
	}
	// In an SSE stream the report arrives in speech.audio.done, with the
	// marks of the (length-kept) converted audio.
	sse := postSpeech(t, ts, map[string]any{"model": "Sotto/Clone", "voice": v.ID, "stream_format": "sse",
		"retry_badcase": true, "input": "The boy was there. The sun rose."})
	ev := sseEvents(t, sse.body)
	if sse.status != 200 || len(ev) != 5 || ev[4][0] != eventSpeechDone {
		t.Fatalf("clone SSE: %d, %d events %v", sse.status, len(ev), ev)
	}
	var done speechDone
	if err := json.Unmarshal([]byte(ev[4][1]), &done); err != nil || done.XSotto.Clone == nil || done.XSotto.Clone.Judged != 2 {
		t.Errorf("clone SSE done = %s (%v); want x_sotto.clone with 2 sentences judged", ev[4][1], err)
	}
	var m speechMarks
	if err := json.Unmarshal([]byte(ev[1][1]), &m); err != nil || len(m.Marks) != 4 || m.Marks[3].Word != "there" {
		t.Errorf("clone SSE marks = %s; want the 4 words of the first sentence", ev[1][1])
	}
	// The saved preference applies when the request names no recipe.
	pref := do(t, ts, "PATCH", "/v1/audio/voices/"+v.ID, jsonBody(map[string]any{"clone_recipe": "ultimate"}), hdr)
	if pref.status != 200 || !strings.Contains(string(pref.body), `"sha256"`) {
		t.Fatalf("patch: %d %s; want the reference kept", pref.status, pref.body)
	}
	if r, c := speak(map[string]any{}); r.status != 200 || c.Recipe != "ultimate" {
		t.Errorf("saved preference: %d, report %+v; want ultimate", r.status, c)
	}
}

// FuzzReferenceFrom checks the reference_audio parser: whatever the input,
// it returns either a 400/422 naming reference_audio, or a reference whose
// audio is a WAV file that decodes and whose profile parses back into a
// valid one with at least MinReferenceSpeech seconds of speech.
func FuzzReferenceFrom(f *testing.F) {
	f.Add(base64.StdEncoding.EncodeToString(tone(4)))
	f.Add("data:audio/wav;base64," + base64.StdEncoding.EncodeToString(tone(3.5)))
	f.Add(base64.StdEncoding.EncodeToString(tone(0.5)))
	f.Add(base64.StdEncoding.EncodeToString([]byte("RIFF\x24\x00\x00\x00WAVEfmt ")))
	f.Add("not base64 at all")
	f.Add("")
	f.Fuzz(func(t *testing.T, in string) {
		// Never start ffmpeg from a fuzz target (a mutated container can
		// keep it busy past the fuzzer's deadline): what the Go decoders
		// do not recognise then fails as it does without ffmpeg.
		t.Setenv("PATH", "")
		ref, err := referenceFrom(t.Context(), in)
		if err != nil {
			e, ok := errors.AsType[*sotto.Error](err)
			if !ok || e.Param != "reference_audio" || (!errors.Is(err, sotto.ErrInvalidRequest) && !errors.Is(err, sotto.ErrUnsatisfiable)) {
				t.Fatalf("referenceFrom(%q) error %v; want a 400 or 422 naming reference_audio", in, err)
			}
			return
		}
		a, _, err := audio.Decode(t.Context(), bytes.NewReader(ref.Audio), audio.Options{})
		if err != nil || math.Abs(float64(len(a.Samples))/16000-ref.Seconds) > 0.01 {
			t.Fatalf("stored audio: %v, %d samples for %.3f s", err, len(a.Samples), ref.Seconds)
		}
		var p tts.VoiceProfile
		if err := json.Unmarshal(ref.Profile, &p); err != nil || !p.Valid() || p.SpeechSeconds < tts.MinReferenceSpeech {
			t.Fatalf("stored profile %s: %v; want a valid profile with ≥ %g s of speech", ref.Profile, err, tts.MinReferenceSpeech)
		}
	})
}
