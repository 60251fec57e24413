package kaldi

import (
	"fmt"
	"math"
	"strings"

	"github.com/sottolabs/sotto/internal/tensor"
)

// Nnet is an nnet3 network read from Kaldi's binary format: its graph (the
// config lines at the top of the file) and its components.
type Nnet struct {
	nodes      map[string]*node
	order      []string // node names in config order
	topo       []string // the nodes the output depends on, each after its inputs
	components map[string]component
	output     *desc
	inputDim   int
	outputDim  int
}

// node is an input-node or a component-node of the config.
type node struct {
	name  string
	input bool   // an input-node (dim set), else a component-node
	dim   int    // the node's output dimension
	comp  string // the component of a component-node
	in    *desc  // the input of a component-node
}

// InputDim is the dimension of the network's input features.
func (n *Nnet) InputDim() int { return n.inputDim }

// OutputDim is the dimension of the network's output.
func (n *Nnet) OutputDim() int { return n.outputDim }

// field kinds of the component fields the reader knows.
const (
	kFloat = iota + 1
	kInt
	kBool
	kVector
	kMatrix
)

var fieldKinds = map[string]int{
	"<MaxChange>": kFloat, "<LearningRate>": kFloat, "<LearningRateFactor>": kFloat,
	"<L2Regularize>": kFloat, "<OrthonormalConstraint>": kFloat, "<NumSamplesHistory>": kFloat,
	"<Alpha>": kFloat, "<Epsilon>": kFloat, "<TargetRms>": kFloat, "<Count>": kFloat,
	"<OderivCount>": kFloat, "<NumDimsSelfRepaired>": kFloat, "<NumDimsProcessed>": kFloat,
	"<SelfRepairScale>": kFloat, "<SelfRepairLowerThreshold>": kFloat,
	"<SelfRepairUpperThreshold>": kFloat, "<VarianceFloor>": kFloat,
	"<RankIn>": kInt, "<RankOut>": kInt, "<UpdatePeriod>": kInt, "<Dim>": kInt,
	"<BlockDim>": kInt, "<InputDim>": kInt, "<InputPeriod>": kInt, "<OutputPeriod>": kInt,
	"<LeftContext>": kInt, "<RightContext>": kInt, "<NumLogCountFeatures>": kInt,
	"<IsGradient>": kBool, "<TestMode>": kBool, "<IncludeVarinance>": kBool,
	"<OutputStddevs>": kBool, "<UseNaturalGradient>": kBool, "<FreezeNaturalGradient>": kBool,
	"<BiasParams>": kVector, "<ValueAvg>": kVector, "<DerivAvg>": kVector,
	"<OderivRms>": kVector, "<StatsMean>": kVector, "<StatsVar>": kVector,
	"<LinearParams>": kMatrix,
}

// component is one of the supported component types.
type component interface {
	dims() (in, out int)
}

type affine struct {
	w *Matrix // out × in
	b []float32
}

type relu struct{ dim int }

type logSoftmax struct{ dim int }

// batchNorm is a BatchNormComponent, always run in test mode: y = (x − mean)·scale per
// block of blockDim values, scale = targetRms/sqrt(var + epsilon).
type batchNorm struct {
	dim, block    int
	scale, offset []float32 // per block dimension: y = x·scale + offset
}

// statsExtraction turns each frame x into [1, x, x²] (x² only with
// variance), at input and output period 1.
type statsExtraction struct {
	in       int
	variance bool
}

// statsPooling averages the extraction's frames over [t−left, t+right]
// into the mean and, with stddev, the standard deviation.
type statsPooling struct {
	in, left, right int
	stddev          bool
	floor           float64
}

func (c *affine) dims() (int, int)          { return c.w.Cols, c.w.Rows }
func (c *relu) dims() (int, int)            { return c.dim, c.dim }
func (c *logSoftmax) dims() (int, int)      { return c.dim, c.dim }
func (c *batchNorm) dims() (int, int)       { return c.dim, c.dim }
func (c *statsExtraction) dims() (int, int) { return c.in, c.outDim() }
func (c *statsExtraction) outDim() int {
	if c.variance {
		return 1 + 2*c.in
	}
	return 1 + c.in
}

// dims: the input is [count, sums] (and the sums of squares with
// stddev), the output the means (and the deviations).
func (c *statsPooling) dims() (int, int) { return c.in, c.in - 1 }

// ReadNnet reads an nnet3 network in Kaldi's binary format ("\0B<Nnet3>"),
// such as an x-vector recipe's final.raw. Its output is the output-node
// named "output".
func ReadNnet(data []byte) (*Nnet, error) {
	if !strings.HasPrefix(string(data), binaryHeader) {
		return nil, fmt.Errorf("kaldi: not a binary Kaldi object (text nnet3 files are not supported)")
	}
	r := &reader{b: data, p: 2}
	if err := r.expect("<Nnet3>"); err != nil {
		return nil, err
	}
	// The config: the rest of the token's line, then lines up to an empty one.
	var lines []string
	if r.p < len(data) && data[r.p] == '\n' {
		r.p++
	}
	for {
		end := strings.IndexByte(string(data[r.p:min(len(data), r.p+1<<16)]), '\n')
		if end < 0 {
			return nil, r.errf("config lines are not ended by an empty line")
		}
		line := strings.TrimSpace(string(data[r.p : r.p+end]))
		r.p += end + 1
		if line == "" {
			break
		}
		lines = append(lines, line)
	}
	if err := r.expect("<NumComponents>"); err != nil {
		return nil, err
	}
	nc, err := r.int32()
	if err != nil {
		return nil, err
	}
	if nc < 0 || nc > 10000 {
		return nil, r.errf("bad component count %d", nc)
	}
	n := &Nnet{nodes: map[string]*node{}, components: map[string]component{}}
	for range nc {
		if err := r.expect("<ComponentName>"); err != nil {
			return nil, err
		}
		name, err := r.token()
		if err != nil {
			return nil, err
		}
		c, err := readComponent(r)
		if err != nil {
			return nil, fmt.Errorf("component %s: %w", name, err)
		}
		if _, dup := n.components[name]; dup {
			return nil, fmt.Errorf("kaldi: component %s defined twice", name)
		}
		n.components[name] = c
	}
	if err := r.expect("</Nnet3>"); err != nil {
		return nil, err
	}
	if err := n.parseConfig(lines); err != nil {
		return nil, err
	}
	return n, nil
}

// readComponent reads "<TypeName> fields… </TypeName>" and builds the
// component.
func readComponent(r *reader) (component, error) {
	typ, err := r.token()
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(typ, "<") || !strings.HasSuffix(typ, ">") {
		return nil, r.errf("expected a component type, found %q", typ)
	}
	kind := typ[1 : len(typ)-1]
	switch kind {
	case "AffineComponent", "NaturalGradientAffineComponent", "RectifiedLinearComponent",
		"BatchNormComponent", "StatisticsExtractionComponent", "StatisticsPoolingComponent",
		"LogSoftmaxComponent":
	default:
		return nil, fmt.Errorf("kaldi: unsupported component type %s", kind)
	}
	end := "</" + kind + ">"
	f := map[string]any{}
	for {
		tok, err := r.token()
		if err != nil {
			return nil, err
		}
		if tok == end {
			break
		}
		k, ok := fieldKinds[tok]
		if !ok {
			return nil, r.errf("unsupported field %s in %s", tok, kind)
		}
		var v any
		switch k {
		case kFloat:
			v, err = r.float()
		case kInt:
			v, err = r.int32()
		case kBool:
			v, err = r.bool()
		case kVector:
			v, err = r.vector()
		case kMatrix:
			v, err = r.matrix()
		}
		if err != nil {
			return nil, err
		}
		f[tok] = v
	}
	// Each field's Go type follows from its name (fieldKinds), so the
	// assertions below cannot fail.
	get := func(name string) (any, error) {
		v, ok := f[name]
		if !ok {
			return nil, fmt.Errorf("kaldi: %s lacks %s", typ, name)
		}
		return v, nil
	}
	getInt := func(name string) (int, error) {
		v, err := get(name)
		if err != nil {
			return 0, err
		}
		return v.(int), nil
	}
	getFloat := func(name string) (float64, error) {
		v, err := get(name)
		if err != nil {
			return 0, err
		}
		return v.(float64), nil
	}
	getBool := func(name string) (bool, error) {
		v, err := get(name)
		if err != nil {
			return false, err
		}
		return v.(bool), nil
	}
	getVec := func(name string) ([]float32, error) {
		v, err := get(name)
		if err != nil {
			return nil, err
		}
		return v.([]float32), nil
	}
	positive := func(name string) (int, error) {
		d, err := getInt(name)
		if err == nil && d <= 0 {
			err = fmt.Errorf("kaldi: %s %s is %d", typ, name, d)
		}
		return d, err
	}
	switch kind {
	case "AffineComponent", "NaturalGradientAffineComponent":
		v, err := get("<LinearParams>")
		if err != nil {
			return nil, err
		}
		w := v.(*Matrix)
		b, err := getVec("<BiasParams>")
		if err != nil {
			return nil, err
		}
		if w.Rows == 0 || w.Cols == 0 || len(b) != w.Rows {
			return nil, fmt.Errorf("kaldi: affine of %d×%d with %d biases", w.Rows, w.Cols, len(b))
		}
		return &affine{w: w, b: b}, nil
	case "RectifiedLinearComponent":
		d, err := positive("<Dim>")
		return &relu{dim: d}, err
	case "LogSoftmaxComponent":
		d, err := positive("<Dim>")
		return &logSoftmax{dim: d}, err
	case "BatchNormComponent":
		d, err := positive("<Dim>")
		if err != nil {
			return nil, err
		}
		bd, err := positive("<BlockDim>")
		if err != nil {
			return nil, err
		}
		// <TestMode> is usually F in a trained model: Kaldi's inference
		// programs (nnet3-xvector-compute) switch every batchnorm to test
		// mode, normalising with the stored statistics, and so do we.
		if _, err := getBool("<TestMode>"); err != nil {
			return nil, err
		}
		eps, err := getFloat("<Epsilon>")
		if err != nil {
			return nil, err
		}
		rms, err := getFloat("<TargetRms>")
		if err != nil {
			return nil, err
		}
		mean, err := getVec("<StatsMean>")
		if err != nil {
			return nil, err
		}
		vr, err := getVec("<StatsVar>")
		if err != nil {
			return nil, err
		}
		if d%bd != 0 || len(mean) != bd || len(vr) != bd {
			return nil, fmt.Errorf("kaldi: batchnorm of dim %d, block %d with %d means and %d variances", d, bd, len(mean), len(vr))
		}
		c := &batchNorm{dim: d, block: bd, scale: make([]float32, bd), offset: make([]float32, bd)}
		for i := range bd {
			v := float64(vr[i]) + eps
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("kaldi: batchnorm variance %g + epsilon %g is not positive", vr[i], eps)
			}
			s := rms / math.Sqrt(v)
			c.scale[i] = float32(s)
			c.offset[i] = float32(-float64(mean[i]) * s)
		}
		return c, nil
	case "StatisticsExtractionComponent":
		in, err := positive("<InputDim>")
		if err != nil {
			return nil, err
		}
		ip, err1 := getInt("<InputPeriod>")
		op, err2 := getInt("<OutputPeriod>")
		va, err3 := getBool("<IncludeVarinance>")
		if err := firstErr(err1, err2, err3); err != nil {
			return nil, err
		}
		if ip != 1 || op != 1 {
			return nil, fmt.Errorf("kaldi: statistics extraction with periods %d and %d (only 1 and 1 are supported)", ip, op)
		}
		return &statsExtraction{in: in, variance: va}, nil
	case "StatisticsPoolingComponent":
		in, err := positive("<InputDim>")
		if err != nil {
			return nil, err
		}
		ip, err1 := getInt("<InputPeriod>")
		left, err2 := getInt("<LeftContext>")
		right, err3 := getInt("<RightContext>")
		nlc, err4 := getInt("<NumLogCountFeatures>")
		sd, err5 := getBool("<OutputStddevs>")
		fl, err6 := getFloat("<VarianceFloor>")
		if err := firstErr(err1, err2, err3, err4, err5, err6); err != nil {
			return nil, err
		}
		if ip != 1 || nlc != 0 || left < 0 || right < 0 || left > 1<<20 || right > 1<<20 {
			return nil, fmt.Errorf("kaldi: statistics pooling with period %d, %d log-count features, context %d,%d (only period 1, no log-counts are supported)", ip, nlc, left, right)
		}
		if sd && (in-1)%2 != 0 || in < 2 {
			return nil, fmt.Errorf("kaldi: statistics pooling of input dim %d", in)
		}
		return &statsPooling{in: in, left: left, right: right, stddev: sd, floor: fl}, nil
	}
	return nil, fmt.Errorf("kaldi: unsupported component type %s", kind)
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// parseConfig reads the input-node, component-node and output-node lines
// and checks the graph: every name defined, dimensions matching, the
// output not depending on an unsupported operation.
func (n *Nnet) parseConfig(lines []string) error {
	var outputs = map[string]*desc{}
	for _, line := range lines {
		f := strings.Fields(line)
		kv := map[string]string{}
		// input=… may hold spaces ("Offset(input, -2)"): it is the rest
		// of the line after "input=", up to a " key=" that follows.
		for i := 1; i < len(f); i++ {
			k, v, ok := strings.Cut(f[i], "=")
			if !ok {
				return fmt.Errorf("kaldi: config line %q: %q is not key=value", line, f[i])
			}
			if k == "input" {
				for i+1 < len(f) && !strings.Contains(f[i+1], "=") {
					i++
					v += " " + f[i]
				}
			}
			kv[k] = v
		}
		name := kv["name"]
		if name == "" {
			return fmt.Errorf("kaldi: config line %q has no name", line)
		}
		if _, dup := n.nodes[name]; dup {
			return fmt.Errorf("kaldi: node %s defined twice", name)
		}
		switch f[0] {
		case "input-node":
			var d int
			if _, err := fmt.Sscanf(kv["dim"], "%d", &d); err != nil || d <= 0 || d > 1<<16 {
				return fmt.Errorf("kaldi: input node %s has bad dim %q", name, kv["dim"])
			}
			n.nodes[name] = &node{name: name, input: true, dim: d}
		case "component-node":
			in, err := parseDesc(kv["input"])
			if err != nil {
				return fmt.Errorf("kaldi: node %s: %w", name, err)
			}
			n.nodes[name] = &node{name: name, comp: kv["component"], in: in}
		case "output-node":
			d, err := parseDesc(kv["input"])
			if err != nil {
				return fmt.Errorf("kaldi: output %s: %w", name, err)
			}
			outputs[name] = d
			continue
		default:
			return fmt.Errorf("kaldi: unsupported config line %q", line)
		}
		n.order = append(n.order, name)
	}
	var inputs []string
	for _, name := range n.order {
		if n.nodes[name].input {
			inputs = append(inputs, name)
		}
	}
	if len(inputs) != 1 || inputs[0] != "input" {
		return fmt.Errorf("kaldi: the network must have one input node named input, has %v", inputs)
	}
	n.inputDim = n.nodes["input"].dim
	out, ok := outputs["output"]
	if !ok {
		return fmt.Errorf("kaldi: the network has no output node named output")
	}
	n.output = out
	// Dimensions, in dependency order; a cycle is an error.
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(name string, path []string) error
	visit = func(name string, path []string) error {
		nd, ok := n.nodes[name]
		if !ok {
			return fmt.Errorf("kaldi: %s uses undefined node %s", strings.Join(path, " <- "), name)
		}
		switch state[name] {
		case 1:
			return fmt.Errorf("kaldi: node %s depends on itself", name)
		case 2:
			return nil
		}
		state[name] = 1
		if !nd.input {
			c, ok := n.components[nd.comp]
			if !ok {
				return fmt.Errorf("kaldi: node %s uses undefined component %q", name, nd.comp)
			}
			if _, bad := c.(*logSoftmax); bad {
				return fmt.Errorf("kaldi: the output depends on node %s, a LogSoftmaxComponent (not supported)", name)
			}
			for _, dep := range nd.in.names(nil) {
				if err := visit(dep, append(path, name)); err != nil {
					return err
				}
			}
			in, outDim := c.dims()
			if got := n.descDim(nd.in); got != in {
				return fmt.Errorf("kaldi: node %s gives component %s %d values, it takes %d", name, nd.comp, got, in)
			}
			nd.dim = outDim
		}
		state[name] = 2
		n.topo = append(n.topo, name)
		return nil
	}
	for _, dep := range out.names(nil) {
		if err := visit(dep, []string{"output"}); err != nil {
			return err
		}
	}
	n.outputDim = n.descDim(out)
	return nil
}

// desc is a descriptor of a node's input: a node name, Offset(d, k),
// Append(d, …) or Round(d, 1).
type desc struct {
	op    string // "", "Offset", "Append", "Round"
	name  string
	k     int
	parts []*desc
}

func (d *desc) names(acc []string) []string {
	if d.op == "" {
		return append(acc, d.name)
	}
	for _, p := range d.parts {
		acc = p.names(acc)
	}
	return acc
}

func (n *Nnet) descDim(d *desc) int {
	switch d.op {
	case "":
		return n.nodes[d.name].dim
	case "Append":
		s := 0
		for _, p := range d.parts {
			s += n.descDim(p)
		}
		return s
	default:
		return n.descDim(d.parts[0])
	}
}

// parseDesc parses a descriptor.
func parseDesc(s string) (*desc, error) {
	p := &descParser{s: s}
	d, err := p.parse(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("descriptor %q: unexpected %q", s, p.s[p.i:])
	}
	return d, nil
}

type descParser struct {
	s string
	i int
}

func (p *descParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

func (p *descParser) word() string {
	p.space()
	j := p.i
	for p.i < len(p.s) && !strings.ContainsRune("(), ", rune(p.s[p.i])) {
		p.i++
	}
	return p.s[j:p.i]
}

func (p *descParser) punct(c byte) error {
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != c {
		return fmt.Errorf("descriptor %q: expected %q at %d", p.s, c, p.i)
	}
	p.i++
	return nil
}

func (p *descParser) int() (int, error) {
	w := p.word()
	var k int
	if _, err := fmt.Sscanf(w, "%d", &k); err != nil || fmt.Sprint(k) != w || k < -100000 || k > 100000 {
		return 0, fmt.Errorf("descriptor %q: %q is not a small integer", p.s, w)
	}
	return k, nil
}

func (p *descParser) parse(depth int) (*desc, error) {
	if depth > 20 {
		return nil, fmt.Errorf("descriptor %q nests too deeply", p.s)
	}
	w := p.word()
	if w == "" {
		return nil, fmt.Errorf("descriptor %q: expected a name at %d", p.s, p.i)
	}
	p.space()
	if p.i >= len(p.s) || p.s[p.i] != '(' {
		return &desc{name: w}, nil
	}
	p.i++
	switch w {
	case "Offset", "Round":
		d, err := p.parse(depth + 1)
		if err != nil {
			return nil, err
		}
		if err := p.punct(','); err != nil {
			return nil, err
		}
		k, err := p.int()
		if err != nil {
			return nil, err
		}
		if err := p.punct(')'); err != nil {
			return nil, fmt.Errorf("%w (only Offset(d, t) and Round(d, 1) are supported)", err)
		}
		if w == "Round" && k != 1 {
			return nil, fmt.Errorf("descriptor %q: Round to %d (only 1 is supported)", p.s, k)
		}
		return &desc{op: w, k: k, parts: []*desc{d}}, nil
	case "Append":
		a := &desc{op: w}
		for {
			d, err := p.parse(depth + 1)
			if err != nil {
				return nil, err
			}
			a.parts = append(a.parts, d)
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			if err := p.punct(')'); err != nil {
				return nil, err
			}
			return a, nil
		}
	}
	return nil, fmt.Errorf("descriptor %q: %s(…) is not supported", p.s, w)
}

// seq is a node's values at times t0, t0+1, …; no rows when no time is
// computable.
type seq struct {
	t0   int
	rows [][]float32
}

func (s seq) t1() int { return s.t0 + len(s.rows) - 1 }

// span is a closed range of times; lo > hi is empty.
type span struct{ lo, hi int }

func (a span) union(b span) span {
	if a.lo > a.hi {
		return b
	}
	if b.lo > b.hi {
		return a
	}
	return span{min(a.lo, b.lo), max(a.hi, b.hi)}
}

// Forward computes the network's output at time 0 for the input frames
// feats (frame t at time t, each InputDim values), as Kaldi's
// nnet3-xvector-compute does for one chunk: every layer is computed where
// its inputs exist, and statistics pooling averages the frames that exist
// in its window. It returns an error when the output at time 0 cannot be
// computed (too few frames).
func (n *Nnet) Forward(feats [][]float32) ([]float32, error) {
	for i, f := range feats {
		if len(f) != n.inputDim {
			return nil, fmt.Errorf("kaldi: frame %d has %d values, the network takes %d", i, len(f), n.inputDim)
		}
	}
	// Which times each node is needed at, from the output back.
	need := map[string]span{}
	var want func(d *desc, s span)
	want = func(d *desc, s span) {
		switch d.op {
		case "":
			need[d.name] = need[d.name].union(s)
		case "Offset":
			want(d.parts[0], span{s.lo + d.k, s.hi + d.k})
		default:
			for _, p := range d.parts {
				want(p, s)
			}
		}
	}
	want(n.output, span{0, 0})
	for i := len(n.topo) - 1; i >= 0; i-- {
		nd := n.nodes[n.topo[i]]
		s, ok := need[nd.name]
		if !ok || nd.input {
			continue
		}
		if p, ok := n.components[nd.comp].(*statsPooling); ok {
			s = span{s.lo - p.left, s.hi + p.right}
		}
		want(nd.in, s)
	}
	vals := map[string]seq{}
	var eval func(name string) (seq, error)
	eval = func(name string) (seq, error) {
		if v, ok := vals[name]; ok {
			return v, nil
		}
		nd := n.nodes[name]
		s := need[name]
		var out seq
		if nd.input {
			lo, hi := max(s.lo, 0), min(s.hi, len(feats)-1)
			if lo <= hi {
				out = seq{t0: lo, rows: feats[lo : hi+1]}
			}
		} else {
			in, err := n.evalDesc(nd.in, eval)
			if err != nil {
				return seq{}, err
			}
			out = apply(n.components[nd.comp], in, s)
		}
		vals[name] = out
		return out, nil
	}
	// Evaluate in dependency order so recursion stays shallow.
	for _, name := range n.topo {
		if _, ok := need[name]; ok {
			if _, err := eval(name); err != nil {
				return nil, err
			}
		}
	}
	o, err := n.evalDesc(n.output, eval)
	if err != nil {
		return nil, err
	}
	if len(o.rows) == 0 || o.t0 > 0 || o.t1() < 0 {
		return nil, fmt.Errorf("kaldi: %d frames are too few to compute the output", len(feats))
	}
	return append([]float32(nil), o.rows[-o.t0]...), nil
}

// evalDesc evaluates a descriptor over the times all its parts have.
func (n *Nnet) evalDesc(d *desc, eval func(string) (seq, error)) (seq, error) {
	switch d.op {
	case "":
		return eval(d.name)
	case "Offset":
		s, err := n.evalDesc(d.parts[0], eval)
		s.t0 -= d.k
		return s, err
	case "Round":
		return n.evalDesc(d.parts[0], eval)
	}
	parts := make([]seq, len(d.parts))
	lo, hi := math.MinInt, math.MaxInt
	for i, p := range d.parts {
		s, err := n.evalDesc(p, eval)
		if err != nil {
			return seq{}, err
		}
		if len(s.rows) == 0 {
			return seq{}, nil
		}
		parts[i] = s
		lo, hi = max(lo, s.t0), min(hi, s.t1())
	}
	if lo > hi {
		return seq{}, nil
	}
	dim := n.descDim(d)
	out := seq{t0: lo, rows: make([][]float32, hi-lo+1)}
	buf := make([]float32, (hi-lo+1)*dim)
	for t := lo; t <= hi; t++ {
		row := buf[(t-lo)*dim : (t-lo+1)*dim : (t-lo+1)*dim]
		row = row[:0]
		for _, s := range parts {
			row = append(row, s.rows[t-s.t0]...)
		}
		out.rows[t-lo] = row
	}
	return out, nil
}

// apply runs component c on in, keeping the times in need.
func apply(c component, in seq, need span) seq {
	if p, ok := c.(*statsPooling); ok {
		return p.pool(in, need)
	}
	lo, hi := max(in.t0, need.lo), min(in.t1(), need.hi)
	if len(in.rows) == 0 || lo > hi {
		return seq{}
	}
	xs := in.rows[lo-in.t0 : hi-in.t0+1]
	_, dim := c.dims()
	buf := make([]float32, len(xs)*dim)
	out := seq{t0: lo, rows: make([][]float32, len(xs))}
	for i := range xs {
		out.rows[i] = buf[i*dim : (i+1)*dim : (i+1)*dim]
	}
	switch c := c.(type) {
	case *affine:
		tensor.MulF32(out.rows, c.w.Data, xs)
		for _, y := range out.rows {
			for j, b := range c.b {
				y[j] += b
			}
		}
	case *relu:
		for i, x := range xs {
			for j, v := range x {
				out.rows[i][j] = max(v, 0)
			}
		}
	case *batchNorm:
		for i, x := range xs {
			for j, v := range x {
				k := j % c.block
				out.rows[i][j] = v*c.scale[k] + c.offset[k]
			}
		}
	case *statsExtraction:
		for i, x := range xs {
			y := out.rows[i]
			y[0] = 1
			copy(y[1:], x)
			if c.variance {
				for j, v := range x {
					y[1+c.in+j] = v * v
				}
			}
		}
	case *logSoftmax:
		for i, x := range xs {
			m := float32(math.Inf(-1))
			for _, v := range x {
				m = max(m, v)
			}
			var s float64
			for _, v := range x {
				s += math.Exp(float64(v - m))
			}
			ls := float32(math.Log(s))
			for j, v := range x {
				out.rows[i][j] = v - m - ls
			}
		}
	}
	return out
}

// pool computes the pooled statistics at every time of need with at
// least one input frame in its window.
func (p *statsPooling) pool(in seq, need span) seq {
	_, dim := p.dims()
	d := (p.in - 1) / 2
	if !p.stddev {
		d = p.in - 1
	}
	var out seq
	sum := make([]float64, p.in)
	for t := need.lo; t <= need.hi; t++ {
		lo, hi := max(t-p.left, in.t0), min(t+p.right, in.t1())
		if lo > hi {
			if len(out.rows) > 0 {
				break
			}
			continue
		}
		if len(out.rows) == 0 {
			out.t0 = t
		}
		clear(sum)
		for u := lo; u <= hi; u++ {
			for j, v := range in.rows[u-in.t0] {
				sum[j] += float64(v)
			}
		}
		y := make([]float32, dim)
		count := sum[0]
		for j := range d {
			mean := sum[1+j] / count
			y[j] = float32(mean)
			if p.stddev {
				v := sum[1+d+j]/count - mean*mean
				y[d+j] = float32(math.Sqrt(max(v, p.floor)))
			}
		}
		out.rows = append(out.rows, y)
	}
	return out
}
