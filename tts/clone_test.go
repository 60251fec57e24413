package tts

import (
	"context"
	"errors"
	"math"
	"os/exec"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/backend"
	"github.com/sottolabs/sotto/tts/internal/vc"
)

func openCloneForTest(t *testing.T) *cloner {
	t.Helper()
	for _, p := range []string{"flite", "espeak-ng"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (make deps installs it)", p)
		}
	}
	b, err := Open(context.Background(), "clone", backend.Config{})
	if err != nil {
		t.Fatal(err)
	}
	return b.(*cloner)
}

// speakAll collects the audio of text spoken by b with voice.
func speakAll(t *testing.T, b Backend, text, voice string) Chunk {
	t.Helper()
	var out Chunk
	err := Speak(context.Background(), b, text, Options{Voice: voice}, func(c Chunk) error {
		out.Samples = append(out.Samples, c.Samples...)
		out.Rate = c.Rate
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCloneMovesTowardReference(t *testing.T) {
	c := openCloneForTest(t)
	ctx := context.Background()
	// The reference is flite's slt (female); the controllable clone
	// converts kal16 (male, about 100 Hz).
	ref := speakAll(t, c, "A rod is used to catch pink salmon. The source of the huge river is the clear spring.", "builtin:slt")
	prof, err := AnalyzeVoice(ctx, ref.Samples, ref.Rate, "file")
	if err != nil {
		t.Fatal(err)
	}
	text := "The boy was there when the sun rose."
	base := vc.Analyze(speakAll(t, c, text, "builtin:kal16").Samples, 16000)
	cv, err := c.Clone(ctx, CloneOptions{Reference: prof, BaseVoice: "builtin:kal16"})
	if err != nil {
		t.Fatal(err)
	}
	got := speakAll(t, cv, text, cv.Voice().ID)
	out := vc.Analyze(got.Samples, got.Rate)
	if math.Abs(math.Log(out.F0Mean/prof.F0Mean)) > math.Log(1.12) {
		t.Errorf("cloned F0 %.0f Hz; want the reference's %.0f Hz ± 12 %% (base voice %.0f Hz)", out.F0Mean, prof.F0Mean, base.F0Mean)
	}
	if r := cv.Report(); r.Recipe != RecipeControllable || r.BaseVoice != "builtin:kal16" || r.F0Target <= 0 || r.EQStrength != 0.6 {
		t.Errorf("Report() = %+v; want controllable on kal16 with an F0 target and the 0.6 equalizer", r)
	}
	// ultimate finds slt itself nearest to a reference spoken by slt, with
	// next to no warp.
	u, err := c.Clone(ctx, CloneOptions{Reference: prof, Recipe: RecipeUltimate, Language: "en", RetryBadcase: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := u.Report(); r.BaseVoice != "builtin:slt" || math.Abs(r.Alpha-1) > 0.03 {
		t.Errorf("ultimate Report() = %+v; want base voice builtin:slt and α ≈ 1", r)
	}
	speakAll(t, u, "Kick the ball straight. Follow through.", u.Voice().ID)
	if r := u.Report(); r.Judged != 2 || r.Retried != len(r.Reasons) {
		t.Errorf("after 2 sentences with retry_badcase: Report() = %+v; want 2 judged", r)
	}
}

func TestAnalyzeVoiceErrors(t *testing.T) {
	silence := make([]float32, 16000*10)
	short := make([]float32, 16000*2)
	for i := range short {
		short[i] = float32(0.2 * math.Sin(2*math.Pi*150*float64(i)/16000))
	}
	for name, x := range map[string][]float32{"silence": silence, "2 s": short} {
		_, err := AnalyzeVoice(context.Background(), x, 16000, "reference_audio")
		if se := asSottoError(err); se == nil || se.Code != "insufficient_speech" || se.Param != "reference_audio" {
			t.Errorf("AnalyzeVoice(%s) = %v; want 422 insufficient_speech naming reference_audio", name, err)
		}
	}
}

func asSottoError(err error) *sotto.Error {
	e, _ := errors.AsType[*sotto.Error](err)
	return e
}
