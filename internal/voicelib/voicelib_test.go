package voicelib

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/sottolabs/sotto"
)

func open(t *testing.T, path string) *Library {
	t.Helper()
	l, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

var uuidRE = regexp.MustCompile(`^user:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestCRUD(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "voices.db")
	l := open(t, path)
	v, err := l.Create(ctx, Voice{Name: "Narrator", Model: "Sotto/Flite", BaseVoice: "builtin:rms", Speed: 0.9, Instructions: ""})
	if err != nil {
		t.Fatal(err)
	}
	if !uuidRE.MatchString(v.ID) || v.Object != "voice" || v.CreatedAt.IsZero() || v.Speed != 0.9 {
		t.Fatalf("Create = %+v", v)
	}
	w, err := l.Create(ctx, Voice{Name: "Designed", Model: "Sotto/eSpeak", BaseVoice: "builtin:design", Design: "a deep British voice"})
	if err != nil || w.Speed != 1 {
		t.Fatalf("Create design = %+v, %v; want speed 1", w, err)
	}
	name := "Storyteller"
	pitch := -3.0
	u, err := l.Update(ctx, v.ID, Patch{Name: &name, Pitch: &pitch}, nil)
	if err != nil || u.Name != name || u.Pitch != -3 || u.Speed != 0.9 || u.BaseVoice != "builtin:rms" {
		t.Fatalf("Update = %+v, %v", u, err)
	}
	// Reopening reads what was written.
	l.Close()
	l = open(t, path)
	got, err := l.Get(ctx, v.ID)
	if err != nil || got.Name != name || got.Pitch != -3 || !got.UpdatedAt.Equal(u.UpdatedAt) {
		t.Fatalf("Get after reopen = %+v, %v; want %+v", got, err, u)
	}
	list, err := l.List(ctx)
	if err != nil || len(list) != 2 || list[0].ID != v.ID || list[1].ID != w.ID {
		t.Fatalf("List = %+v, %v", list, err)
	}
	if err := l.Delete(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		func() error { _, err := l.Get(ctx, v.ID); return err }(),
		l.Delete(ctx, v.ID),
		func() error { _, err := l.Update(ctx, "user:nope", Patch{}, nil); return err }(),
	} {
		if !errors.Is(err, sotto.ErrNotFound) {
			t.Errorf("after delete: %v; want a 404", err)
		}
	}
}

func TestValidate(t *testing.T) {
	ok := Voice{Name: "x", Model: "m", BaseVoice: "builtin:rms", Speed: 1}
	for _, tc := range []struct {
		param string
		edit  func(*Voice)
	}{
		{"name", func(v *Voice) { v.Name = " " }},
		{"model", func(v *Voice) { v.Model = "" }},
		{"base_voice", func(v *Voice) { v.BaseVoice = "user:x" }},
		{"base_voice", func(v *Voice) { v.BaseVoice = "builtin:auto" }},
		{"design", func(v *Voice) { v.BaseVoice = "builtin:design" }},
		{"speed", func(v *Voice) { v.Speed = 9 }},
		{"pitch", func(v *Voice) { v.Pitch = -30 }},
		{"clone_recipe", func(v *Voice) { v.CloneRecipe = "fast" }},
	} {
		v := ok
		tc.edit(&v)
		var se *sotto.Error
		if err := v.Validate(); !errors.As(err, &se) || se.Param != tc.param {
			t.Errorf("Validate(%+v) = %v; want a 400 on %s", v, err, tc.param)
		}
	}
	if err := ok.Validate(); err != nil {
		t.Errorf("Validate(%+v) = %v", ok, err)
	}
}

// TestKillMidWrite kills a process that is writing voices as fast as it
// can, then checks that the library opens, passes SQLite's integrity check
// and holds every voice whose Create had returned.
func TestKillMidWrite(t *testing.T) {
	if path := os.Getenv("VOICELIB_WRITER"); path != "" {
		writer(path)
		return
	}
	path := filepath.Join(t.TempDir(), "voices.db")
	open(t, path).Close() // create the schema first
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidWrite$")
	cmd.Env = append(os.Environ(), "VOICELIB_WRITER="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var done []string
	sc := bufio.NewScanner(out)
	for sc.Scan() && len(done) < 40 {
		if uuidRE.MatchString(sc.Text()) {
			done = append(done, sc.Text())
		}
	}
	cmd.Process.Kill() // SIGKILL, in the middle of the next writes
	cmd.Wait()
	if len(done) < 40 {
		t.Fatalf("the writer confirmed only %d voices", len(done))
	}
	l := open(t, path)
	var check string
	if err := l.db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check = %q, %v", check, err)
	}
	for _, id := range done {
		if _, err := l.Get(context.Background(), id); err != nil {
			t.Errorf("voice %s was confirmed before the kill but is gone: %v", id, err)
		}
	}
	var mode string
	l.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode = %q; want wal", mode)
	}
}

// writer creates and updates voices until killed, printing each created ID
// once its Create has returned.
func writer(path string) {
	l, err := Open(context.Background(), path)
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	for i := 0; ; i++ {
		v, err := l.Create(context.Background(), Voice{Name: fmt.Sprintf("v%d", i), Model: "Sotto/Flite", BaseVoice: "builtin:rms"})
		if err != nil {
			fmt.Println("create:", err)
			os.Exit(1)
		}
		fmt.Println(v.ID)
		s := float64(i%10)/10 + 0.5
		l.Update(context.Background(), v.ID, Patch{Speed: &s}, nil)
	}
}

func TestReferenceKeptAcrossRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "voices.db")
	l := open(t, path)
	wav := []byte("RIFF....WAVEfmt fake audio bytes")
	v, err := l.Create(ctx, Voice{Name: "Me", Model: "Sotto/Clone", BaseVoice: "builtin:kal16",
		Reference: &Reference{Audio: wav, Profile: []byte(`{"f0_mean":120}`), Seconds: 5.5, SpeechSeconds: 4.25}})
	if err != nil {
		t.Fatal(err)
	}
	if v.Reference == nil || v.Reference.Audio != nil || len(v.Reference.SHA256) != 64 {
		t.Fatalf("Create().Reference = %+v; want metadata with a digest and no audio", v.Reference)
	}
	plain, err := l.Create(ctx, Voice{Name: "Plain", Model: "Sotto/Flite", BaseVoice: "builtin:rms"})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	l = open(t, path)
	got, err := l.Get(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r := got.Reference; r == nil || string(r.Profile) != `{"f0_mean":120}` || r.Seconds != 5.5 || r.SpeechSeconds != 4.25 || r.SHA256 != v.Reference.SHA256 {
		t.Fatalf("Get after reopen: Reference = %+v; want %+v", got.Reference, v.Reference)
	}
	if b, err := l.ReferenceAudio(ctx, v.ID); err != nil || string(b) != string(wav) {
		t.Fatalf("ReferenceAudio = %q, %v; want %q", b, err, wav)
	}
	if p, _ := l.Get(ctx, plain.ID); p.Reference != nil {
		t.Fatalf("voice without reference: Reference = %+v; want nil", p.Reference)
	}
	// A patch replaces the reference; other patches keep it.
	name := "Me again"
	if u, err := l.Update(ctx, v.ID, Patch{Name: &name}, nil); err != nil || u.Reference == nil || u.Reference.SHA256 != v.Reference.SHA256 {
		t.Fatalf("Update(name) = %+v, %v; want the reference kept", u.Reference, err)
	}
	u, err := l.Update(ctx, v.ID, Patch{Reference: &Reference{Audio: []byte("other"), Profile: []byte(`{}`), Seconds: 9}}, nil)
	if err != nil || u.Reference.Seconds != 9 {
		t.Fatalf("Update(reference) = %+v, %v", u.Reference, err)
	}
	if b, _ := l.ReferenceAudio(ctx, v.ID); string(b) != "other" {
		t.Fatalf("ReferenceAudio after update = %q; want %q", b, "other")
	}
	// Deleting the voice deletes its reference.
	if err := l.Delete(ctx, v.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := l.ReferenceAudio(ctx, v.ID); !errors.Is(err, sotto.ErrNotFound) {
		t.Fatalf("ReferenceAudio after delete: %v; want not found", err)
	}
	var n int
	if err := l.db.QueryRow(`SELECT count(*) FROM voice_references`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("references left after delete: %d, %v", n, err)
	}
}
