package whisper

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/internal/testdata"
)

// decGolden is one dec_tiny_*.txt file (testdata/README.md): whisper.cpp's
// tokenizer output, language-token logits, logits step by step on a
// forced token sequence, and whisper_full token sequences.
type decGolden struct {
	tokenize   map[string][]int
	langLogits []float64
	prompt     []int
	forced     []int
	steps      []stepGolden
	full       map[string]*fullGolden
}

type stepGolden struct {
	argmax       int
	max, sum, sq float64
	at           map[int]float64
}

type fullGolden struct {
	lang     string
	segments []segGolden
}

type segGolden struct {
	t0, t1 int
	tokens []int
}

func readDecGolden(t *testing.T, name string) *decGolden {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := &decGolden{tokenize: map[string][]int{}, full: map[string]*fullGolden{}}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return v
	}
	ints := func(fs []string) []int {
		var out []int
		for _, s := range fs {
			out = append(out, int(num(s)))
		}
		return out
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		fs := strings.Fields(line)
		if len(fs) == 0 {
			continue
		}
		switch fs[0] {
		case "tokenize":
			q1, q2 := strings.Index(line, `"`), strings.LastIndex(line, `"`)
			g.tokenize[line[q1+1:q2]] = ints(strings.Fields(line[q2+1:]))
		case "lang_logits":
			for _, s := range fs[1:] {
				g.langLogits = append(g.langLogits, num(s))
			}
		case "prompt":
			g.prompt = ints(fs[1:])
		case "forced":
			g.forced = ints(fs[1:])
		case "step":
			s := stepGolden{argmax: int(num(fs[3])), max: num(fs[5]), sum: num(fs[7]), sq: num(fs[9]), at: map[int]float64{}}
			for _, kv := range fs[11:] {
				k, v, _ := strings.Cut(kv, ":")
				s.at[int(num(k))] = num(v)
			}
			if int(num(fs[1])) != len(g.steps) {
				t.Fatalf("%s: step %s out of order", name, fs[1])
			}
			g.steps = append(g.steps, s)
		case "full":
			g.full[fs[1]] = &fullGolden{lang: fs[3]}
		case "seg":
			fg := g.full[fs[1]]
			fg.segments = append(fg.segments, segGolden{t0: int(num(fs[2])), t1: int(num(fs[3])), tokens: ints(fs[5:])})
		}
	}
	if len(g.steps) == 0 && len(g.full) == 0 {
		t.Fatalf("%s: golden file incomplete", name)
	}
	return g
}

// tinyRun is a random-weight tiny model with its encoder and decoder and
// the encoder output for the first window of en_jfk_16k.wav, shared by the
// tests of one process (the encoder takes seconds).
type tinyRun struct {
	m    *Model
	enc  *Encoder
	dec  *Decoder
	mel  *Mel
	out  [][]float32
	pool *tensor.Pool
}

var (
	tinyMu   sync.Mutex
	tinyRuns = map[FType]*tinyRun{}
	tinyTmp  string
)

// tinyDir returns a directory for the shared random-weight models.
func tinyDir(t *testing.T) string {
	if tinyTmp == "" {
		d, err := os.MkdirTemp("", "whisper-tiny-")
		if err != nil {
			t.Fatal(err)
		}
		tinyTmp = d
	}
	return tinyTmp
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, r := range tinyRuns {
		r.pool.Close()
		r.m.Close()
	}
	if tinyTmp != "" {
		os.RemoveAll(tinyTmp)
	}
	os.Exit(code)
}

func loadAudio(t *testing.T, name string) []float32 {
	t.Helper()
	a, _, err := audio.DecodeFile(context.Background(), testdata.Path(t, "speech", name), audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return a.Samples
}

func tinyJFK(t *testing.T, ft FType) *tinyRun {
	t.Helper()
	if testing.Short() {
		t.Skip("skip: the tiny encoder takes seconds")
	}
	samples := loadAudio(t, "en_jfk_16k.wav")
	tinyMu.Lock()
	defer tinyMu.Unlock()
	if r, ok := tinyRuns[ft]; ok {
		return r
	}
	// The model outlives the test that made it: keep it in a directory of
	// its own (removed by TestMain).
	m := randomTinyIn(t, ft, tinyDir(t))
	r := &tinyRun{m: m, pool: tensor.NewPool(2)}
	var err error
	if r.enc, err = NewEncoder(m); err != nil {
		t.Fatal(err)
	}
	if r.dec, err = NewDecoder(m); err != nil {
		t.Fatal(err)
	}
	if r.mel, err = LogMel(context.Background(), samples, m.Filters, 0); err != nil {
		t.Fatal(err)
	}
	if r.out, err = r.enc.Encode(context.Background(), r.pool, r.mel, 0); err != nil {
		t.Fatal(err)
	}
	tinyRuns[ft] = r
	return r
}

// logitTol is how far the decoder's logits may be from whisper.cpp's. The
// two agree to about 1e-3 on F16 models; quantized models multiply with
// the input quantized to Q8_0, where any tiny difference upstream moves
// some values across a quantization step (1/127 of a block's maximum), so
// the logits differ by up to about 0.03 there.
var logitTol = map[FType]struct{ max, mean float64 }{
	FTypeF16:  {0.003, 0.0005},
	FTypeQ8_0: {0.05, 0.012},
	FTypeQ5_0: {0.05, 0.012},
	FTypeQ5_1: {0.05, 0.012},
}

var decGoldens = map[FType]string{
	FTypeF16:  "dec_tiny_f16_en_jfk_16k.txt",
	FTypeQ8_0: "dec_tiny_q8_0_en_jfk_16k.txt",
	FTypeQ5_0: "dec_tiny_q5_0_en_jfk_16k.txt",
	FTypeQ5_1: "dec_tiny_q5_1_en_jfk_16k.txt",
}

// TestDecoderMatchesWhisperCpp feeds whisper.cpp's forced token sequence
// through the decoder one token at a time (the KV cache at work) and
// compares the logits after every step with whisper.cpp's.
func TestDecoderMatchesWhisperCpp(t *testing.T) {
	for _, ft := range []FType{FTypeF16, FTypeQ8_0, FTypeQ5_0, FTypeQ5_1} {
		wt, _ := ft.WeightType()
		t.Run(wt.String(), func(t *testing.T) {
			r := tinyJFK(t, ft)
			g := readDecGolden(t, decGoldens[ft])
			a, err := r.dec.Audio(context.Background(), r.pool, r.out, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := r.dec.NewState()
			for i, tok := range g.prompt {
				if err := s.Step(r.pool, a, tok, i == len(g.prompt)-1); err != nil {
					t.Fatal(err)
				}
			}
			var worst, sumAbs float64
			var cnt, argmaxSame int
			for i, want := range g.steps {
				if i > 0 {
					if err := s.Step(r.pool, a, g.forced[i-1], true); err != nil {
						t.Fatal(err)
					}
				}
				am := 0
				for j, v := range s.Logits {
					if v > s.Logits[am] {
						am = j
					}
				}
				tol := logitTol[ft]
				if am == want.argmax {
					argmaxSame++
				} else if d := float64(s.Logits[am] - s.Logits[want.argmax]); d > tol.max {
					t.Errorf("step %d: argmax %d, whisper.cpp's %d, %.3g apart (more than the tolerance %g)", i, am, want.argmax, d, tol.max)
				} else {
					t.Logf("step %d: argmax %d, whisper.cpp's %d: a near-tie, %.2g apart", i, am, want.argmax, d)
				}
				for id, w := range want.at {
					d := math.Abs(float64(s.Logits[id]) - w)
					worst = max(worst, d)
					sumAbs += d
					cnt++
				}
			}
			mean := sumAbs / float64(cnt)
			t.Logf("%v: %d steps, %d logits: max |Δ| %.3g, mean |Δ| %.3g; argmax equal at %d of %d steps",
				wt, len(g.steps), cnt, worst, mean, argmaxSame, len(g.steps))
			tol := logitTol[ft]
			if worst > tol.max || mean > tol.mean {
				t.Errorf("logits: max |Δ| %.3g (limit %g), mean |Δ| %.3g (limit %g)", worst, tol.max, mean, tol.mean)
			}
		})
	}
}

// BenchmarkDecoderStep measures one decoder step (with logits) of the
// random-weight tiny model at positions 4–67, against a fixed encoder
// output: b.N steps, reported per token.
func BenchmarkDecoderStep(b *testing.B) {
	for _, ft := range []FType{FTypeF16, FTypeQ8_0, FTypeQ5_0} {
		wt, _ := ft.WeightType()
		b.Run(wt.String(), func(b *testing.B) {
			dir := b.TempDir()
			src := filepath.Join(dir, "for-tests.bin")
			if err := os.WriteFile(src, forTests(b), 0o644); err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(dir, "tiny.bin")
			if err := GenerateFile(context.Background(), src, path, ft, 1); err != nil {
				b.Fatal(err)
			}
			m, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			dec, err := NewDecoder(m)
			if err != nil {
				b.Fatal(err)
			}
			pool := tensor.NewPool(0)
			defer pool.Close()
			h := m.Hparams
			enc := rows(h.NAudioCtx, h.NAudioState)
			for i := range enc {
				for j := range enc[i] {
					enc[i][j] = float32(math.Sin(float64(i*7 + j))) // order 1, as layer-normed output
				}
			}
			a, err := dec.Audio(context.Background(), pool, enc, nil)
			if err != nil {
				b.Fatal(err)
			}
			s := dec.NewState()
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for i := range b.N {
				if i%64 == 0 {
					b.StopTimer()
					s.Reset()
					for _, tok := range []int{50258, 50259, 50359, 50364} {
						s.Step(pool, a, tok, false)
					}
					b.StartTimer()
				}
				if err := s.Step(pool, a, 400+i%64, true); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/token")
			b.ReportMetric((cpuSeconds()-cpu0)*1e3/float64(b.N), "cpu-ms/token")
		})
	}
}

// BenchmarkEncode measures the encoder on one 30 s window of the
// random-weight tiny model (a tone; the input does not change the work).
func BenchmarkEncode(b *testing.B) {
	for _, ft := range []FType{FTypeF16, FTypeQ8_0, FTypeQ5_0} {
		wt, _ := ft.WeightType()
		b.Run(wt.String(), func(b *testing.B) {
			dir := b.TempDir()
			src := filepath.Join(dir, "for-tests.bin")
			if err := os.WriteFile(src, forTests(b), 0o644); err != nil {
				b.Fatal(err)
			}
			path := filepath.Join(dir, "tiny.bin")
			if err := GenerateFile(context.Background(), src, path, ft, 1); err != nil {
				b.Fatal(err)
			}
			m, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			defer m.Close()
			enc, err := NewEncoder(m)
			if err != nil {
				b.Fatal(err)
			}
			tone := make([]float32, 11*SampleRate)
			for i := range tone {
				tone[i] = float32(0.1 * math.Sin(float64(i)*0.05))
			}
			mel, err := LogMel(context.Background(), tone, m.Filters, 0)
			if err != nil {
				b.Fatal(err)
			}
			pool := tensor.NewPool(0)
			defer pool.Close()
			cpu0 := cpuSeconds()
			b.ResetTimer()
			for range b.N {
				if _, err := enc.Encode(context.Background(), pool, mel, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/window")
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/window")
		})
	}
}
