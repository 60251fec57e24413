package whisper

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sottolabs/sotto/audio"
	"github.com/sottolabs/sotto/internal/tensor"
	"github.com/sottolabs/sotto/internal/testdata"
)

// encGolden is whisper.cpp's encoder output for a random-weight model
// (see testdata/README.md): whole rows at chosen positions and, for every
// position, the sum and sum of squares of its row.
type encGolden struct {
	rows     map[int][]float64
	sum, sq  map[int]float64
	nCtx, nW int
}

func readEncGolden(t *testing.T, path string) *encGolden {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g := &encGolden{rows: map[int][]float64{}, sum: map[int]float64{}, sq: map[int]float64{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		return v
	}
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 {
			continue
		}
		switch fs[0] {
		case "enc":
			g.nCtx, g.nW = int(num(fs[1])), int(num(fs[2]))
		case "enc_pos":
			var r []float64
			for _, s := range fs[2:] {
				r = append(r, num(s))
			}
			g.rows[int(num(fs[1]))] = r
		case "enc_sum":
			p := int(num(fs[1]))
			g.sum[p], g.sq[p] = num(fs[2]), num(fs[3])
		}
	}
	return g
}

// randomTiny writes the seed-1 random-weight tiny model of type ft to a
// temporary file and opens it.
func randomTiny(t *testing.T, ft FType) *Model {
	t.Helper()
	m := randomTinyIn(t, ft, t.TempDir())
	t.Cleanup(func() { m.Close() })
	return m
}

// randomTinyIn is randomTiny writing into dir and leaving the model open.
func randomTinyIn(t *testing.T, ft FType, dir string) *Model {
	t.Helper()
	src := filepath.Join(dir, "for-tests.bin")
	if err := os.WriteFile(src, forTests(t), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "tiny-"+strconv.Itoa(int(ft))+".bin")
	if err := GenerateFile(context.Background(), src, path, ft, 1); err != nil {
		t.Fatal(err)
	}
	// The files the golden outputs were recorded from (testdata/README.md).
	want := map[FType]string{
		FTypeF16:  "248e09e19c563553a67ce9d91a3edceb46232fc56f53d809cc236081f778100b",
		FTypeQ8_0: "8d56f0a317153261f8990414805354bff98f97d1253bb932fe425d3c76669ab2",
		FTypeQ5_0: "c9b50165ac0731dfc7a6f50065a039746941d35d292fbdd17210cf6f4d35ef75",
		FTypeQ5_1: "670be075d33930dc2d670b3e79485bb13f2d6e1cbcdef169134e4a0e4b456c07",
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != want[ft] {
		t.Fatalf("random tiny %v model: sha256 %x; the golden files were recorded from %s", ft, sum, want[ft])
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.CheckTensors(); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestEncoderMatchesWhisperCpp(t *testing.T) {
	if testing.Short() {
		t.Skip("skip: the tiny encoder takes seconds")
	}
	wav := testdata.Path(t, "speech", "en_jfk_16k.wav")
	a, _, err := audio.DecodeFile(context.Background(), wav, audio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Tolerances: whisper.cpp's non-flash path (golden "enc_...") agrees
	// closely; its default flash-attention path (golden "whisper_..._flash")
	// accumulates the attention output in F16 over 1500 positions, which
	// costs it about 2 % (mean 0.017). Quantized models amplify any input
	// difference by moving activations across Q8_0 rounding steps.
	type check struct {
		golden          string
		maxTol, meanTol float64
	}
	for _, tc := range []struct {
		ft     FType
		checks []check
	}{
		{FTypeF16, []check{{"enc_tiny_f16_en_jfk_16k.txt", 5e-3, 1e-3}, {"whisper_tiny_f16_flash_en_jfk_16k.txt", 0.2, 0.03}}},
		{FTypeQ8_0, []check{{"enc_tiny_q8_0_en_jfk_16k.txt", 0.06, 0.01}, {"whisper_tiny_q8_0_flash_en_jfk_16k.txt", 0.2, 0.03}}},
		{FTypeQ5_0, []check{{"enc_tiny_q5_0_en_jfk_16k.txt", 0.06, 0.01}, {"whisper_tiny_q5_0_flash_en_jfk_16k.txt", 0.2, 0.03}}},
		{FTypeQ5_1, []check{{"enc_tiny_q5_1_en_jfk_16k.txt", 0.06, 0.01}, {"whisper_tiny_q5_1_flash_en_jfk_16k.txt", 0.2, 0.03}}},
	} {
		wt, _ := tc.ft.WeightType()
		t.Run(wt.String(), func(t *testing.T) {
			m := randomTiny(t, tc.ft)
			enc, err := NewEncoder(m)
			if err != nil {
				t.Fatal(err)
			}
			mel, err := LogMel(context.Background(), a.Samples, m.Filters, 0)
			if err != nil {
				t.Fatal(err)
			}
			pool := tensor.NewPool(0)
			defer pool.Close()
			start := time.Now()
			out, err := enc.Encode(context.Background(), pool, mel, 0)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%v: Encode took %v (%d threads, kernels %s)", wt, time.Since(start).Round(time.Millisecond), pool.Threads(), tensor.Kernels())
			for _, c := range tc.checks {
				g := readEncGolden(t, filepath.Join("testdata", c.golden))
				if len(out) != g.nCtx || len(out[0]) != g.nW {
					t.Fatalf("Encode: %d×%d; want %d×%d", len(out), len(out[0]), g.nCtx, g.nW)
				}
				var worst, sumAbs float64
				var cnt int
				for p, want := range g.rows {
					for i, w := range want {
						d := math.Abs(float64(out[p][i]) - w)
						worst = max(worst, d)
						sumAbs += d
						cnt++
					}
				}
				var worstMean float64
				for p, want := range g.sum {
					var s float64
					for _, v := range out[p] {
						s += float64(v)
					}
					worstMean = max(worstMean, math.Abs(s-want)/float64(g.nW))
				}
				mean := sumAbs / float64(cnt)
				t.Logf("%s: max |Δ| %.3g, mean |Δ| %.3g over %d values at %d positions; max |Δ| of row means %.3g over %d positions",
					c.golden, worst, mean, cnt, len(g.rows), worstMean, len(g.sum))
				if cnt == 0 || len(g.sum) != g.nCtx {
					t.Fatalf("%s: golden file incomplete", c.golden)
				}
				if worst > c.maxTol || mean > c.meanTol {
					t.Errorf("%s: max |Δ| %.3g (limit %g), mean |Δ| %.3g (limit %g)", c.golden, worst, c.maxTol, mean, c.meanTol)
				}
			}
		})
	}
}

// TestEncoderToy runs the encoder on the toy model: finite output of the
// right shape, the same on a second run, and the documented errors.
func TestEncoderToy(t *testing.T) {
	m, err := Parse(smallModel(t, FTypeQ8_0, 1))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := NewEncoder(m)
	if err != nil {
		t.Fatal(err)
	}
	tone := make([]float32, 3000)
	for i := range tone {
		tone[i] = float32(math.Sin(float64(i) * 0.3))
	}
	mel, err := LogMel(context.Background(), tone, m.Filters, 1)
	if err != nil {
		t.Fatal(err)
	}
	pool := tensor.NewPool(2)
	defer pool.Close()
	out, err := enc.Encode(context.Background(), pool, mel, 0)
	if err != nil {
		t.Fatalf("Encode = %v", err)
	}
	if len(out) != 6 || len(out[0]) != 64 {
		t.Fatalf("Encode: %d×%d; want 6×64", len(out), len(out[0]))
	}
	again, _ := enc.Encode(context.Background(), pool, mel, 0)
	for p := range out {
		for i, v := range out[p] {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || v != again[p][i] {
				t.Fatalf("Encode[%d][%d] = %v, then %v", p, i, v, again[p][i])
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := enc.Encode(ctx, pool, mel, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("Encode(cancelled) = %v; want context.Canceled", err)
	}
	if _, err := enc.Encode(context.Background(), pool, &Mel{NMel: 80, NLen: 10, Data: make([]float32, 800)}, 0); err == nil {
		t.Error("Encode of an 80-bin mel on a 3-bin model succeeded")
	}
	// A model missing a weight is refused.
	delete(m.byName, "encoder.ln_post.bias")
	if _, err := NewEncoder(m); !errors.Is(err, ErrFormat) {
		t.Errorf("NewEncoder(missing ln_post.bias) = %v; want ErrFormat", err)
	}
}

// TestGeluTable checks the table-driven GELU against the formula evaluated
// directly on the half-precision input, over a sweep through both
// cut-offs, and the values ggml's cut-offs give.
func TestGeluTable(t *testing.T) {
	for i := -130000; i <= 130000; i++ {
		x := float32(i) * 1e-4
		want := float32(0)
		switch {
		case x <= -10:
		case x >= 10:
			want = x
		default:
			want = geluF16(f16Round(x))
		}
		if got := gelu(x); got != want {
			t.Fatalf("gelu(%v) = %v; want %v", x, got, want)
		}
	}
	for _, c := range []struct{ x, want float32 }{{1, 0.8413}, {-1, -0.1587}, {0, 0}, {2, 1.955}} {
		if got := gelu(c.x); math.Abs(float64(got-c.want)) > 1e-3 {
			t.Errorf("gelu(%v) = %v; want about %v", c.x, got, c.want)
		}
	}
}
