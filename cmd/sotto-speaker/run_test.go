package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/internal/sphinx"
	"github.com/sottolabs/sotto/internal/testdata"
	"github.com/sottolabs/sotto/speaker"
	"github.com/sottolabs/sotto/speaker/speakertest"
)

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"listen", "a.wav"},
		{"embed"},
		{"compare", "a.wav"},
		{"timeline", "a.wav", "b.wav"},
		{"--format", "srt", "timeline", "a.wav"},
		{"--format", "json", "embed", "a.wav"},
		{"--speakers", "-2", "timeline", "a.wav"},
		{"--start", "5", "--end", "2", "embed", "a.wav"},
		{"--channel", "left", "embed", "a.wav"},
		{"--bogus", "embed", "a.wav"},
		{"--threshold", "7", "compare", "a.wav", "b.wav"},
		{"--threshold", "NaN", "compare", "a.wav", "b.wav"},
		{"compare", "-", "-"},
	} {
		err := run(context.Background(), args, nil, &bytes.Buffer{}, &bytes.Buffer{})
		if exitCode(err) != 2 {
			t.Errorf("%q: %v (exit %d); want a usage error", args, err, exitCode(err))
		}
	}
	// The messages name the flags typed, not the API's fields.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--speakers", "99", "timeline", "a.wav"}, "--speakers must be 0 (estimate) to 32, not 99"},
		{[]string{"--max-speakers", "99", "timeline", "a.wav"}, "--max-speakers must be 0 (default 8) to 32"},
		{[]string{"--channel", "left", "embed", "a.wav"}, `--channel must be "mix" or a zero-based channel index, got "left"`},
	} {
		err := run(context.Background(), tc.args, nil, &bytes.Buffer{}, &bytes.Buffer{})
		if exitCode(err) != 2 || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: %v (exit %d); want a usage error starting %q", tc.args, err, exitCode(err), tc.want)
		}
	}
}

func TestHelpTeaches(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"--help"}, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"embed FILE", "compare A B", "timeline FILE", "does not decide", "--speakers", "RTTM",
		// the thresholds the help advises are the package's, not copies
		fmt.Sprintf("default %.2f", speaker.FusedVerifyThreshold), fmt.Sprintf("--threshold %.2f", speaker.FusedShortClipThreshold),
		"--xvector-dir", "--without-network", "serve downloads"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q", want)
		}
	}
	if strings.Contains(out.String(), "%!") {
		t.Errorf("--help has a formatting error:\n%s", out.String())
	}
}

func TestCommands(t *testing.T) {
	if _, err := os.Stat(sphinx.DefaultModelDir + "/means"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	jfk := testdata.Path(t, "speech", "en_jfk_16k.wav")
	lj := testdata.Path(t, "speech", "en_lj_LJ001-0004_16k.wav")
	// The speaker network: the real one where it was downloaded, else
	// speakertest's tiny one, whose x-vector part says nothing about
	// voices (so two voices are told apart only with the real one);
	// TestNetworkMissing covers its absence.
	real := (&config{xvectorDir: defaultXVectorDir()}).checkNetwork() == nil
	if d := os.Getenv("SOTTO_XVECTOR_DIR"); d != "" {
		_, err := os.Stat(filepath.Join(d, speaker.XVectorNetFile))
		real = err == nil
	}
	if !real {
		net := t.TempDir()
		if err := speakertest.WriteXVector(net, 1); err != nil {
			t.Fatal(err)
		}
		t.Setenv("SOTTO_XVECTOR_DIR", net)
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"embed", jfk}, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var e struct {
		Embedding []float64
		Method    string
	}
	if err := json.Unmarshal(out.Bytes(), &e); err != nil || len(e.Embedding) != speaker.Dim || e.Method != speaker.MethodFused {
		t.Errorf("embed: %v, %d numbers, method %q", err, len(e.Embedding), e.Method)
	}
	out.Reset()
	if err := run(context.Background(), []string{"compare", "--end", "5.5", "--start-b", "5.5", jfk, jfk}, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "possibly the same speaker") {
		t.Errorf("compare halves of one recording: %s", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"compare", jfk, lj}, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if real && !strings.Contains(out.String(), "probably different speakers") {
		t.Errorf("compare jfk and lj: %s", out.String())
	}
	out.Reset()
	if err := run(context.Background(), []string{"timeline", "--speakers", "1", jfk}, nil, &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	fileRTTM := out.String()
	turns, err := speaker.ParseRTTM(&out)
	if err != nil || len(turns) == 0 || turns[0].Speaker != "S1" {
		t.Errorf("timeline: %v, %+v", err, turns)
	}
	// FILE "-" reads standard input: the same timeline, its RTTM file
	// named stdin.
	data, err := os.ReadFile(jfk)
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), []string{"timeline", "--speakers", "1", "-"}, bytes.NewReader(data), &out, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(fileRTTM, " en_jfk_16k ", " stdin "); out.String() != want {
		t.Errorf("timeline of standard input:\n%s\nwant:\n%s", out.String(), want)
	}
	if err := run(context.Background(), []string{"embed", "--start", "100", jfk}, nil, &out, &bytes.Buffer{}); exitCode(err) != 1 ||
		!strings.Contains(err.Error(), "--start 100 is at or after the end of the audio (11.00 s)") {
		t.Errorf("--start past the end: %v; want exit 1 saying so (it said: 0.00 s of speech)", err)
	}
	// B's window is named by B's flags; the decoder's errors by this
	// command's flags, not the API's fields.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--start-b", "100", jfk, lj}, "--start-b 100 is at or after the end of the audio"},
		{[]string{"compare", "--end-b", "100", jfk, lj}, "--end-b 100 is after the end of the audio"},
		{[]string{"embed", "--track", "1", jfk}, jfk + ": --track 1 is out of range: the WAV file has 1 audio track"},
		{[]string{"timeline", "--channel", "1", jfk}, jfk + ": --channel 1 is out of range: the track has 1 channel(s)"},
	} {
		err := run(context.Background(), tc.args, nil, &out, &bytes.Buffer{})
		if exitCode(err) != 1 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v (exit %d); want exit 1 and %q", tc.args, err, exitCode(err), tc.want)
		}
	}
	if err := run(context.Background(), []string{"embed", "--start", "0", "--end", "0.8", jfk}, nil, &out, &bytes.Buffer{}); exitCode(err) != 1 ||
		!strings.Contains(err.Error(), "speech") {
		t.Errorf("0.8 s: %v; want exit 1 for too little speech", err)
	}
}

// TestNetworkMissing: embed and compare without the speaker network fail
// saying how to get it (never another space silently); --without-network
// embeds with the Debian model alone, and timelines never need it.
func TestNetworkMissing(t *testing.T) {
	if _, err := os.Stat(sphinx.DefaultModelDir + "/means"); err != nil {
		t.Skip("the Debian en-us acoustic model is not installed (apt-get install pocketsphinx-en-us)")
	}
	jfk := testdata.Path(t, "speech", "en_jfk_16k.wav")
	t.Setenv("SOTTO_XVECTOR_DIR", "")
	t.Setenv("SOTTO_DATA_DIR", t.TempDir())
	for _, args := range [][]string{{"embed", jfk}, {"compare", jfk, jfk}, {"embed", "--xvector-dir", t.TempDir(), jfk}} {
		err := run(context.Background(), args, nil, io.Discard, io.Discard)
		if exitCode(err) != 1 {
			t.Fatalf("%q without the network: %v; want exit 1", args, err)
		}
		for _, want := range []string{"Sotto/Kaldi-XVector-Callhome", "sotto-cli models download", "--without-network"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %v; want it to say %q", args, err, want)
			}
		}
	}
	var out bytes.Buffer
	if err := run(context.Background(), []string{"embed", "--without-network", jfk}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var e struct{ Method string }
	if json.Unmarshal(out.Bytes(), &e); e.Method != speaker.Method {
		t.Errorf("--without-network: method %q; want %s", e.Method, speaker.Method)
	}
	out.Reset()
	if err := run(context.Background(), []string{"compare", "--without-network", "--end", "5.5", "--start-b", "5.5", jfk, jfk}, nil, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("threshold %.2f", speaker.VerifyThreshold); !strings.Contains(out.String(), want) ||
		!strings.Contains(out.String(), "possibly the same speaker") {
		t.Errorf("compare --without-network, halves of one recording: %q; want the same speaker at its own method's %s", out.String(), want)
	}
	out.Reset()
	lj := testdata.Path(t, "speech", "en_lj_LJ001-0004_16k.wav")
	if err := run(context.Background(), []string{"compare", "--without-network", jfk, lj}, nil, &out, io.Discard); err != nil ||
		!strings.Contains(out.String(), "probably different speakers") {
		t.Errorf("compare --without-network jfk lj: %q (%v); want different speakers", out.String(), err)
	}
	if err := run(context.Background(), []string{"timeline", "--speakers", "1", jfk}, nil, io.Discard, io.Discard); err != nil {
		t.Errorf("timeline without the network: %v", err)
	}
}

// TestTimelineNotice: a timeline of a minute of audio or more announces
// itself (on a terminal; run checks that), a shorter one does not.
func TestTimelineNotice(t *testing.T) {
	for _, c := range []struct {
		seconds float64
		want    string
	}{
		{11, ""},
		{59.9, ""},
		{60, "sotto-speaker: finding who spoke when in 1m0s of audio (Ctrl-C stops)..."},
		{543.9, "sotto-speaker: finding who spoke when in 9m4s of audio (Ctrl-C stops)..."},
	} {
		if got := timelineNotice(c.seconds); got != c.want {
			t.Errorf("timelineNotice(%v) = %q; want %q", c.seconds, got, c.want)
		}
	}
}
