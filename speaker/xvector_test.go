package speaker

import (
	"bufio"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/models"
	"github.com/sottolabs/sotto/internal/testdata"
)

// xvectorDir is the x-vector model directory of the tests: $SOTTO_XVECTOR_DIR,
// else where the catalog's Sotto/Kaldi-XVector-Callhome download puts it
// in the default data directory.
func xvectorDir() string {
	if d := os.Getenv("SOTTO_XVECTOR_DIR"); d != "" {
		return d
	}
	return filepath.Join(models.DefaultDataDir(os.Getenv), "models",
		models.SanitizeID("Sotto/Kaldi-XVector-Callhome"), "vosk-model-spk-0.4")
}

// loadXVector loads the model or skips the test with one line.
func loadXVector(t testing.TB) *XVector {
	t.Helper()
	d := xvectorDir()
	if _, err := os.Stat(filepath.Join(d, XVectorNetFile)); err != nil {
		t.Skipf("x-vector model absent in %s (set SOTTO_XVECTOR_DIR or download Sotto/Kaldi-XVector-Callhome)", d)
	}
	x, err := LoadXVector(d)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func speechFile(t testing.TB, name string) sotto.Audio {
	t.Helper()
	p, err := testdata.Lookup("speech", name)
	if err != nil {
		t.Skip(err)
	}
	a, _, err := audio.DecodeFile(context.Background(), p, audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// readXVectorGolden reads testdata/xvector_golden.txt: the file names, the
// reference embeddings a and b and their cosine.
func readXVectorGolden(t *testing.T) (files [2]string, emb [2][]float64, cos float64) {
	f, err := os.Open(filepath.Join("testdata", "xvector_golden.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		switch {
		case len(w) == 4 && w[0] == "#" && w[1] == "file" && (w[2] == "A:" || w[2] == "B:"):
			files[int(w[2][0]-'A')] = w[3]
		case len(w) == 2 && w[0] == "cos_ab":
			cos, err = strconv.ParseFloat(w[1], 64)
		case len(w) == XVectorDim+1 && (w[0] == "a" || w[0] == "b"):
			i := int(w[0][0] - 'a')
			for _, s := range w[1:] {
				var x float64
				x, err = strconv.ParseFloat(s, 64)
				emb[i] = append(emb[i], x)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if files[0] == "" || files[1] == "" || len(emb[0]) != XVectorDim || len(emb[1]) != XVectorDim || cos == 0 {
		t.Fatal("testdata/xvector_golden.txt is incomplete")
	}
	return files, emb, cos
}

// TestXVectorGolden compares the Go x-vector with an independent numpy
// implementation of the same recipe (testdata/xvector_golden.txt says
// how it was made). The two differ in the 16→8 kHz resampler (audio's
// Kaiser-windowed sinc, flat to 3.6 kHz, against a Hann-windowed sinc with
// its cut-off at 3.96 kHz), which moves the values by up to about 0.002:
// each value must be within 0.01 of the reference, the cosine with it at
// least 0.999, and the cosine of the two files within 0.01 of the
// reference's.
func TestXVectorGolden(t *testing.T) {
	x := loadXVector(t)
	files, ref, refCos := readXVectorGolden(t)
	var got [2][]float32
	for i, name := range files {
		v, err := x.Embed(context.Background(), speechFile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != XVectorDim {
			t.Fatalf("%d values", len(v))
		}
		var dot, n float64
		for j, y := range v {
			if d := math.Abs(float64(y) - ref[i][j]); d > 0.01 {
				t.Errorf("%s: value %d is %v, reference %v", name, j, y, ref[i][j])
			}
			dot += float64(y) * ref[i][j]
			n += float64(y) * float64(y)
		}
		if math.Abs(n-1) > 1e-5 {
			t.Errorf("%s: squared length %v", name, n)
		}
		if dot < 0.999 {
			t.Errorf("%s: cosine with the reference %.5f, want ≥ 0.999", name, dot)
		}
		got[i] = v
	}
	var c float64
	for j := range got[0] {
		c += float64(got[0][j]) * float64(got[1][j])
	}
	if math.Abs(c-refCos) > 0.01 {
		t.Errorf("cosine of the two files %.4f, reference %.4f", c, refCos)
	}
}

func TestXVectorDeterministic(t *testing.T) {
	x := loadXVector(t)
	a := speechFile(t, "spk_ls_1688-142285-0003_16k.wav")
	e1, err := x.EmbedDetail(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	e2, err := x.EmbedDetail(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	for i := range e1.Vector {
		if e1.Vector[i] != e2.Vector[i] {
			t.Fatalf("value %d differs between two runs: %v, %v", i, e1.Vector[i], e2.Vector[i])
		}
	}
	if e1.Method != XVectorMethod || e1.SpeechSeconds <= MinSpeech || e1.SpeechSeconds > 4.08 {
		t.Fatalf("method %q, %v s of speech", e1.Method, e1.SpeechSeconds)
	}
}

func TestXVectorSilence(t *testing.T) {
	x := loadXVector(t)
	for name, s := range map[string][]float32{
		"silence":   make([]float32, 3*sotto.SampleRate),
		"too short": make([]float32, 100),
		"empty":     nil,
	} {
		_, err := x.Embed(context.Background(), sotto.Audio{Samples: s})
		var se *sotto.Error
		if !errors.As(err, &se) || se.Code != CodeTooLittleSpeech {
			t.Errorf("%s: error %v, want code %s", name, err, CodeTooLittleSpeech)
		}
	}
}

func TestLoadXVectorErrors(t *testing.T) {
	if _, err := LoadXVector(t.TempDir()); err == nil {
		t.Fatal("an empty directory loads")
	}
	if _, err := NewXVector([]byte("\x00B<Nnet3> \n\n"), []byte("[ 1 ]"), []byte("[ 1 ]"), "--num-ceps=23"); err == nil {
		t.Fatal("a broken network loads")
	}
	if _, err := NewXVector(nil, nil, nil, "--bogus=1"); err == nil {
		t.Fatal("a bad mfcc.conf loads")
	}
}

// TestXVectorChunks checks WithChunks: speech shorter than a chunk gives
// the plain x-vector; longer speech is averaged over chunks that cover
// all of it, which the plain x-vector (the network's 4 s window) does not.
func TestXVectorChunks(t *testing.T) {
	x := loadXVector(t)
	xc := x.WithChunks(408)
	file := speechFile(t, "spk_ls_1688-142285-0003_16k.wav")
	short := file
	short.Samples = short.Samples[:7*sotto.SampleRate/2] // 3.5 s
	a, err := x.EmbedDetail(context.Background(), short)
	if err != nil {
		t.Fatal(err)
	}
	b, err := xc.EmbedDetail(context.Background(), short)
	if err != nil {
		t.Fatal(err)
	}
	if a.SpeechSeconds >= 4.08 {
		t.Fatalf("the short file has %v s of speech; want under one chunk", a.SpeechSeconds)
	}
	for i := range a.Vector {
		if a.Vector[i] != b.Vector[i] {
			t.Fatalf("value %d: chunked %v, plain %v", i, b.Vector[i], a.Vector[i])
		}
	}
	long := speechFile(t, "spk_ls_1688-142285-0006_16k.wav")
	long.Samples = append(append([]float32(nil), long.Samples...), file.Samples...)
	p, err := x.EmbedDetail(context.Background(), long)
	if err != nil {
		t.Fatal(err)
	}
	c, err := xc.EmbedDetail(context.Background(), long)
	if err != nil {
		t.Fatal(err)
	}
	if p.SpeechSeconds != 4.08 || c.SpeechSeconds <= 8 {
		t.Fatalf("speech covered: plain %v s, chunked %v s", p.SpeechSeconds, c.SpeechSeconds)
	}
	var dot float64
	for i := range p.Vector {
		dot += float64(p.Vector[i]) * float64(c.Vector[i])
	}
	if dot > 0.999 || dot < 0.5 {
		t.Fatalf("cosine of the chunked and plain x-vectors of one speaker %.4f; want between 0.5 and 0.999", dot)
	}
}

// BenchmarkXVectorEmbed reports the x-vector's real-time factor on
// en_jfk_16k.wav (11 s; the network sees its first 4 s of speech).
func BenchmarkXVectorEmbed(b *testing.B) {
	x := loadXVector(b)
	a := speechFile(b, "en_jfk_16k.wav")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := x.Embed(context.Background(), a); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/a.Seconds(), "rtf")
}
