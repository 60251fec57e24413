package sphinx

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// FeatParams are the front-end and feature settings of an acoustic model,
// read from its feat.params file. Zero values mean "not given"; see
// DefaultFeatParams for the peer's defaults.
type FeatParams struct {
	SampleRate   float64   // Hz
	FrameRate    int       // frames per second
	WindowLength float64   // seconds
	NFFT         int       // FFT points
	Alpha        float64   // pre-emphasis coefficient
	LowerF       float64   // Hz, lower edge of the mel filterbank
	UpperF       float64   // Hz, upper edge
	NFilt        int       // mel filters
	NCep         int       // cepstra per frame
	Lifter       int       // liftering parameter (0 = none)
	Transform    string    // "dct" (DCT-II), "legacy" or "htk"
	Feat         string    // feature type, only "1s_c_d_dd" is supported
	SVSpec       [][2]int  // stream ranges [from, to] inclusive
	AGC          string    // "none"
	CMN          string    // "batch" (alias "current"), "live" (alias "prior") or "none"
	VarNorm      bool      // variance normalisation (unsupported)
	Model        string    // "ptm", "cont" or "semi"
	CMNInit      []float64 // initial CMN means for live CMN
	RemoveNoise  bool      // spectral noise subtraction in mel energies
	// Warp is the factor of a piecewise-linear frequency warp of the mel
	// filterbank (vocal tract length normalisation, see [WarpHz]); 0 or
	// 1 = none. It is no feat.params setting: callers set it per speaker.
	Warp  float64
	Extra map[string]string
}

// DefaultFeatParams returns the peer's defaults (pocketsphinx 5prealpha),
// before feat.params is applied.
func DefaultFeatParams() FeatParams {
	return FeatParams{
		SampleRate: 16000, FrameRate: 100, WindowLength: 0.025625, NFFT: 512, Alpha: 0.97,
		LowerF: 133.33334, UpperF: 6855.4976, NFilt: 40, NCep: 13, Lifter: 0, Transform: "legacy",
		Feat: "1s_c_d_dd", AGC: "none", CMN: "live", Model: "", RemoveNoise: true,
		CMNInit: []float64{8.0}, Extra: map[string]string{},
	}
}

// ParseFeatParams reads a feat.params file ("-name value" pairs separated
// by white space) over the defaults and validates what the engine supports.
func ParseFeatParams(name string, data []byte) (FeatParams, error) {
	p := DefaultFeatParams()
	f := strings.Fields(string(data))
	if len(f)%2 != 0 {
		return p, fmt.Errorf("sphinx: %s: option %q has no value", name, f[len(f)-1])
	}
	for i := 0; i < len(f); i += 2 {
		k, v := f[i], f[i+1]
		if !strings.HasPrefix(k, "-") {
			return p, fmt.Errorf("sphinx: %s: expected an option, got %q", name, k)
		}
		var err error
		num := func() float64 {
			x, e := strconv.ParseFloat(v, 64)
			if e != nil && err == nil {
				err = fmt.Errorf("sphinx: %s: %s %q: not a number", name, k, v)
			}
			return x
		}
		inum := func() int {
			x, e := strconv.Atoi(v)
			if e != nil && err == nil {
				err = fmt.Errorf("sphinx: %s: %s %q: not an integer", name, k, v)
			}
			return x
		}
		switch k[1:] {
		case "samprate":
			p.SampleRate = num()
		case "frate":
			p.FrameRate = inum()
		case "wlen":
			p.WindowLength = num()
		case "nfft":
			p.NFFT = inum()
		case "alpha":
			p.Alpha = num()
		case "lowerf":
			p.LowerF = num()
		case "upperf":
			p.UpperF = num()
		case "nfilt":
			p.NFilt = inum()
		case "ncep":
			p.NCep = inum()
		case "lifter":
			p.Lifter = inum()
		case "transform":
			p.Transform = v
		case "feat":
			p.Feat = v
		case "svspec":
			p.SVSpec = nil
			for _, part := range strings.Split(v, "/") {
				a, b, ok := strings.Cut(part, "-")
				x, e1 := strconv.Atoi(a)
				y, e2 := strconv.Atoi(b)
				if !ok || e1 != nil || e2 != nil || x < 0 || y < x {
					return p, fmt.Errorf("sphinx: %s: -svspec %q: bad range %q", name, v, part)
				}
				p.SVSpec = append(p.SVSpec, [2]int{x, y})
			}
		case "agc":
			p.AGC = v
		case "cmn":
			// SphinxTrain writes the older names: "current" is the
			// whole-utterance mean, "prior" the running one.
			switch v {
			case "current":
				v = "batch"
			case "prior":
				v = "live"
			}
			p.CMN = v
		case "varnorm":
			p.VarNorm = v == "yes"
		case "model":
			p.Model = v
		case "cmninit":
			p.CMNInit = nil
			for _, s := range strings.Split(v, ",") {
				x, e := strconv.ParseFloat(s, 64)
				if e != nil {
					return p, fmt.Errorf("sphinx: %s: -cmninit %q: %v", name, v, e)
				}
				p.CMNInit = append(p.CMNInit, x)
			}
		case "remove_noise":
			p.RemoveNoise = v == "yes"
		default:
			p.Extra[k[1:]] = v
		}
		if err != nil {
			return p, err
		}
	}
	return p, p.Validate()
}

// Validate reports settings the engine cannot honour.
func (p FeatParams) Validate() error {
	// strconv.ParseFloat reads "NaN" and "Inf": such a setting passes the
	// range checks below (every comparison with NaN is false, and int of
	// ±Inf or NaN is undefined), so every real-valued setting must be
	// finite first.
	for _, x := range []struct {
		opt string
		v   float64
	}{{"-samprate", p.SampleRate}, {"-wlen", p.WindowLength}, {"-alpha", p.Alpha},
		{"-lowerf", p.LowerF}, {"-upperf", p.UpperF}, {"frequency warp", p.Warp}} {
		if math.IsNaN(x.v) || math.IsInf(x.v, 0) {
			return fmt.Errorf("sphinx: feat.params: %s %g is not a finite number", x.opt, x.v)
		}
	}
	for _, v := range p.CMNInit {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("sphinx: feat.params: -cmninit %g is not a finite number", v)
		}
	}
	switch {
	case p.SampleRate != 16000:
		return fmt.Errorf("sphinx: feat.params: sample rate %g Hz unsupported (want 16000)", p.SampleRate)
	case p.FrameRate <= 0 || p.FrameRate > 1000:
		return fmt.Errorf("sphinx: feat.params: frame rate %d out of range", p.FrameRate)
	case p.NFFT < 64 || p.NFFT > 8192 || p.NFFT&(p.NFFT-1) != 0:
		return fmt.Errorf("sphinx: feat.params: -nfft %d is not a power of two in [64,8192]", p.NFFT)
	case math.Floor(p.WindowLength*p.SampleRate+0.5) > float64(p.NFFT) || math.Floor(p.WindowLength*p.SampleRate+0.5) < 1:
		// In floating point: int() of a product beyond int's range
		// (-wlen 1e300) is undefined and came out negative.
		return fmt.Errorf("sphinx: feat.params: window of %g s does not fit -nfft %d", p.WindowLength, p.NFFT)
	case p.NFilt < 1 || p.NFilt > 256 || p.NCep < 1 || p.NCep > p.NFilt:
		return fmt.Errorf("sphinx: feat.params: -nfilt %d / -ncep %d out of range", p.NFilt, p.NCep)
	case p.LowerF < 0 || p.UpperF <= p.LowerF || p.UpperF > p.SampleRate/2:
		return fmt.Errorf("sphinx: feat.params: filterbank %g–%g Hz out of range", p.LowerF, p.UpperF)
	case p.Transform != "dct" && p.Transform != "legacy" && p.Transform != "htk":
		return fmt.Errorf("sphinx: feat.params: -transform %q unsupported", p.Transform)
	case p.Feat != "1s_c_d_dd":
		return fmt.Errorf("sphinx: feat.params: -feat %q unsupported (want 1s_c_d_dd)", p.Feat)
	case p.AGC != "none":
		return fmt.Errorf("sphinx: feat.params: -agc %q unsupported", p.AGC)
	case p.VarNorm:
		return fmt.Errorf("sphinx: feat.params: -varnorm yes unsupported")
	case p.CMN != "batch" && p.CMN != "live" && p.CMN != "none":
		return fmt.Errorf("sphinx: feat.params: -cmn %q unsupported", p.CMN)
	case p.Lifter < 0:
		return fmt.Errorf("sphinx: feat.params: -lifter %d negative", p.Lifter)
	case p.Warp != 0 && (p.Warp < 0.5 || p.Warp > 2):
		return fmt.Errorf("sphinx: frequency warp %g out of range [0.5, 2]", p.Warp)
	}
	for _, r := range p.SVSpec {
		if r[1] >= 3*p.NCep {
			return fmt.Errorf("sphinx: feat.params: -svspec range %d-%d beyond %d dimensions", r[0], r[1], 3*p.NCep)
		}
	}
	// Every mel filter must cover at least one FFT point.
	return (&Frontend{p: p, nfft: p.NFFT}).buildMel()
}
