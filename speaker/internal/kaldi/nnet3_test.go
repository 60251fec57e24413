package kaldi

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// tinyNet is a small x-vector-shaped network: input dim 2, a TDNN layer
// over frames t−1, t, t+1 (affine 6→3, ReLU, batchnorm), statistics
// extraction and pooling over [t, t+right], and an affine 6→2 output.
type tinyNet struct {
	w1   []float32 // 3×6
	b1   []float32
	mean []float32 // batchnorm statistics, 3
	vr   []float32
	w2   []float32 // 2×6
	b2   []float32
	r    int // pooling right context
}

func newTinyNet(seed uint64) *tinyNet {
	rng := rand.New(rand.NewPCG(seed, 1))
	f := func(n int, scale float64, off float64) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(off + scale*rng.NormFloat64())
		}
		return v
	}
	return &tinyNet{w1: f(18, 1, 0), b1: f(3, 0.3, 0), mean: f(3, 0.2, 0.5), vr: f(3, 0.1, 1), w2: f(12, 1, 0), b2: f(2, 0.1, 0), r: 6}
}

// encode writes the network in Kaldi's binary nnet3 format; extra is
// written as an additional config line, comp replaces the last
// component's bytes when set.
func (n *tinyNet) encode(config string) []byte {
	var w writer
	w.WriteString(binaryHeader)
	w.Token("<Nnet3>")
	w.WriteString("\n")
	if config == "" {
		config = `input-node name=input dim=2
component-node name=l1.affine component=l1.affine input=Append(Offset(input, -1), input, Offset(input, 1))
component-node name=l1.relu component=l1.relu input=l1.affine
component-node name=l1.bn component=l1.bn input=l1.relu
component-node name=stats-extraction component=stats-extraction input=l1.bn
component-node name=stats-pooling component=stats-pooling input=stats-extraction
component-node name=out.affine component=out.affine input=Round(stats-pooling, 1)
component-node name=out.softmax component=out.softmax input=out.affine
output-node name=output input=out.affine objective=linear`
	}
	w.WriteString(config + "\n\n")
	w.Token("<NumComponents>")
	w.Int32(7)
	w.Token("<ComponentName>")
	w.Token("l1.affine")
	w.Token("<NaturalGradientAffineComponent>")
	w.Token("<MaxChange>")
	w.Float32(2)
	w.Token("<LearningRate>")
	w.Float32(0.001)
	w.Token("<LinearParams>")
	w.Matrix(3, 6, n.w1...)
	w.Token("<BiasParams>")
	w.Vector(n.b1...)
	w.Token("<RankIn>")
	w.Int32(20)
	w.Token("<Alpha>")
	w.Float32(4)
	w.Token("</NaturalGradientAffineComponent>")
	w.Token("<ComponentName>")
	w.Token("l1.relu")
	w.Token("<RectifiedLinearComponent>")
	w.Token("<Dim>")
	w.Int32(3)
	w.Token("<ValueAvg>")
	w.Vector(0, 0, 0)
	w.Token("<Count>")
	w.Float64(12)
	w.Token("</RectifiedLinearComponent>")
	w.Token("<ComponentName>")
	w.Token("l1.bn")
	w.Token("<BatchNormComponent>")
	w.Token("<Dim>")
	w.Int32(3)
	w.Token("<BlockDim>")
	w.Int32(3)
	w.Token("<Epsilon>")
	w.Float32(0.001)
	w.Token("<TargetRms>")
	w.Float32(1)
	w.Token("<TestMode>")
	w.Bool(false)
	w.Token("<Count>")
	w.Float64(100)
	w.Token("<StatsMean>")
	w.Vector(n.mean...)
	w.Token("<StatsVar>")
	w.Vector(n.vr...)
	w.Token("</BatchNormComponent>")
	w.Token("<ComponentName>")
	w.Token("stats-extraction")
	w.Token("<StatisticsExtractionComponent>")
	w.Token("<InputDim>")
	w.Int32(3)
	w.Token("<InputPeriod>")
	w.Int32(1)
	w.Token("<OutputPeriod>")
	w.Int32(1)
	w.Token("<IncludeVarinance>")
	w.Bool(true)
	w.Token("</StatisticsExtractionComponent>")
	w.Token("<ComponentName>")
	w.Token("stats-pooling")
	w.Token("<StatisticsPoolingComponent>")
	w.Token("<InputDim>")
	w.Int32(7)
	w.Token("<InputPeriod>")
	w.Int32(1)
	w.Token("<LeftContext>")
	w.Int32(0)
	w.Token("<RightContext>")
	w.Int32(n.r)
	w.Token("<NumLogCountFeatures>")
	w.Int32(0)
	w.Token("<OutputStddevs>")
	w.Bool(true)
	w.Token("<VarianceFloor>")
	w.Float32(1e-10)
	w.Token("</StatisticsPoolingComponent>")
	w.Token("<ComponentName>")
	w.Token("out.affine")
	w.Token("<AffineComponent>")
	w.Token("<LinearParams>")
	w.Matrix(2, 6, n.w2...)
	w.Token("<BiasParams>")
	w.Vector(n.b2...)
	w.Token("</AffineComponent>")
	w.Token("<ComponentName>")
	w.Token("out.softmax")
	w.Token("<LogSoftmaxComponent>")
	w.Token("<Dim>")
	w.Int32(2)
	w.Token("</LogSoftmaxComponent>")
	w.Token("</Nnet3>")
	return w.Bytes()
}

// reference computes the output at t = 0 with plain loops: layer 1 exists
// at t = 1 … T−2, pooling covers layer 1 at t ∈ [0, r] that exists.
func (n *tinyNet) reference(x [][]float32) []float64 {
	var hs [][]float64
	for t := 1; t <= min(n.r, len(x)-2); t++ {
		in := append(append(append([]float32{}, x[t-1]...), x[t]...), x[t+1]...)
		h := make([]float64, 3)
		for i := range 3 {
			s := float64(n.b1[i])
			for j := range 6 {
				s += float64(n.w1[i*6+j]) * float64(in[j])
			}
			s = math.Max(s, 0)
			h[i] = (s - float64(n.mean[i])) / math.Sqrt(float64(n.vr[i])+float64(float32(0.001)))
		}
		hs = append(hs, h)
	}
	stats := make([]float64, 6)
	for i := range 3 {
		var s, ss float64
		for _, h := range hs {
			s += h[i]
			ss += h[i] * h[i]
		}
		m := s / float64(len(hs))
		stats[i] = m
		stats[3+i] = math.Sqrt(math.Max(ss/float64(len(hs))-m*m, 1e-10))
	}
	out := make([]float64, 2)
	for i := range 2 {
		out[i] = float64(n.b2[i])
		for j := range 6 {
			out[i] += float64(n.w2[i*6+j]) * stats[j]
		}
	}
	return out
}

func TestNnetForwardMatchesReference(t *testing.T) {
	tn := newTinyNet(3)
	net, err := ReadNnet(tn.encode(""))
	if err != nil {
		t.Fatal(err)
	}
	if net.InputDim() != 2 || net.OutputDim() != 2 {
		t.Fatalf("dims %d, %d", net.InputDim(), net.OutputDim())
	}
	rng := rand.New(rand.NewPCG(9, 9))
	// 3 frames: one layer-1 frame; 5: fewer than the pooling window; 20: more.
	for _, T := range []int{3, 5, 8, 20} {
		x := make([][]float32, T)
		for i := range x {
			x[i] = []float32{float32(rng.NormFloat64()), float32(rng.NormFloat64())}
		}
		got, err := net.Forward(x)
		if err != nil {
			t.Fatalf("T=%d: %v", T, err)
		}
		want := tn.reference(x)
		for i := range want {
			if math.Abs(float64(got[i])-want[i]) > 1e-4*(1+math.Abs(want[i])) {
				t.Fatalf("T=%d: output %v, want %v", T, got, want)
			}
		}
	}
	// Two frames leave no layer-1 frame: the output cannot be computed.
	if _, err := net.Forward([][]float32{{1, 2}, {3, 4}}); err == nil || !strings.Contains(err.Error(), "too few") {
		t.Fatalf("2 frames: %v", err)
	}
	if _, err := net.Forward([][]float32{{1, 2}, {3}, {4, 5}}); err == nil {
		t.Fatal("a short frame: no error")
	}
}

func TestReadNnetErrors(t *testing.T) {
	tn := newTinyNet(1)
	good := string(tn.encode(""))
	cfg := func(old, new string) string {
		c := strings.SplitN(strings.SplitN(good, "\n\n", 2)[0], "\n", 2)[1]
		return string(tn.encode(strings.Replace(c, old, new, 1)))
	}
	for name, c := range map[string]struct {
		data, want string
	}{
		"unsupported component": {strings.Replace(good, "<LogSoftmaxComponent> <Dim>", "<SigmoidComponent> <Dim>", 1), "unsupported component type SigmoidComponent"},
		"unknown field":         {strings.Replace(good, "<Alpha>", "<Gamma>", 1), "unsupported field <Gamma>"},
		"output on softmax":     {cfg("input=out.affine objective", "input=out.softmax objective"), "LogSoftmaxComponent"},
		"Sum descriptor":        {cfg("input=Round(stats-pooling, 1)", "input=Sum(stats-pooling, stats-pooling)"), "Sum(…) is not supported"},
		"dimension mismatch":    {cfg("Offset(input, 1))", "Offset(input, 1), input)"), "gives component l1.affine 8 values"},
		"undefined node":        {cfg("input=l1.relu", "input=l0.relu"), "undefined node l0.relu"},
		"no output":             {cfg("output-node name=output", "output-node name=other"), "no output node"},
		"text format":           {"<Nnet3> ", "not a binary"},
	} {
		_, err := ReadNnet([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
	// Every prefix of a good file is an error, never a panic.
	for n := 0; n < len(good)-1; n += 7 { // (without the last byte, a space, the file is whole)
		if _, err := ReadNnet([]byte(good[:n])); err == nil {
			t.Fatalf("prefix of %d bytes: no error", n)
		}
	}
}

func FuzzReadNnet(f *testing.F) {
	f.Add(newTinyNet(1).encode(""))
	f.Add([]byte(binaryHeader + "<Nnet3> \ninput-node name=input dim=2\n\n<NumComponents> \x04\x00\x00\x00\x00</Nnet3> "))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := ReadNnet(data)
		if err != nil {
			return
		}
		x := make([][]float32, 30)
		for i := range x {
			x[i] = make([]float32, n.InputDim())
			for j := range x[i] {
				x[i][j] = float32(i - j)
			}
		}
		if n.InputDim() > 4096 {
			return
		}
		out, err := n.Forward(x)
		if err == nil && len(out) != n.OutputDim() {
			t.Fatalf("output of %d values, OutputDim %d", len(out), n.OutputDim())
		}
	})
}

func FuzzReadMatrix(f *testing.F) {
	var w writer
	w.WriteString(binaryHeader)
	w.Matrix(2, 2, 1, 2, 3, 4)
	f.Add(w.Bytes())
	f.Add([]byte("[ 1 2\n 3 4 ]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadMatrix(data)
		if err == nil && len(m.Data) != m.Rows*m.Cols {
			t.Fatalf("%d values for %d×%d", len(m.Data), m.Rows, m.Cols)
		}
		ReadVector(data)
	})
}
