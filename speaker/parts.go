package speaker

import (
	"context"
	"fmt"

	"github.com/sottolabs/sotto"
	"github.com/sottolabs/sotto/speaker/internal/parts"
)

// The evaluation's view of an embedding's parts (speaker/internal/parts):
// the same computation as EmbedDetail, returned before it is fused.
func init() {
	parts.Of = partsOf
	parts.Fuse = fusePartsOf
	parts.MedianBumps = medianBumps
	parts.Both = bothOf
}

func bothOf(ctx context.Context, b any, a sotto.Audio) (v8, fused []float32, err error) {
	l, ok := b.(*lattice)
	if !ok || l.xv == nil {
		return nil, nil, fmt.Errorf("speaker: both embeddings of a %T; want the \"go\" driver with %s", b, OptXVectorDir)
	}
	if l.closed.Load() {
		return nil, nil, fmt.Errorf("speaker: embed: backend closed")
	}
	s, err := samples16k(a)
	if err != nil {
		return nil, nil, err
	}
	p, xv, err := l.fusedParts(ctx, a, s)
	if err != nil {
		return nil, nil, err
	}
	return float32s(l.m.fuseParts(p)), float32s(l.m.fuseXVector(p, xv)), nil
}

func partsOf(ctx context.Context, b any, a sotto.Audio, o parts.Options) (*parts.Parts, error) {
	l, ok := b.(*lattice)
	if !ok {
		return nil, fmt.Errorf("speaker: parts of a %T; want the \"go\" driver", b)
	}
	if l.closed.Load() {
		return nil, fmt.Errorf("speaker: parts: backend closed")
	}
	s, err := samples16k(a)
	if err != nil {
		return nil, err
	}
	p, err := l.parts(ctx, s, a.Rate(), true, o.Taus)
	if err != nil {
		return nil, err
	}
	out := &parts.Parts{
		Static:     p.static,
		Delta:      p.delta,
		DeltaProj:  l.m.projectDelta(p.delta),
		PitchEnc:   pitchEncoding(logF0(p.vf)),
		FormantEnc: formantEncoding(p.formants),
		LogF0:      logF0(p.vf),
		Formants:   make([][]parts.Cand, len(p.formants)),
		Frames:     p.frames,
		SNR:        p.snr,
		Tau:        p.tau,
		Embedding:  l.m.fuseParts(p),
	}
	for i, cs := range p.formants {
		for _, c := range cs {
			out.Formants[i] = append(out.Formants[i], parts.Cand{F: c.f, BW: c.bw})
		}
	}
	for _, x := range p.extra {
		out.Extra = append(out.Extra, parts.Transforms{Static: x[0], Delta: x[1], DeltaProj: l.m.projectDelta(x[1])})
	}
	return out, nil
}

func fusePartsOf(b any, p *parts.Parts) ([]float64, error) {
	l, ok := b.(*lattice)
	if !ok {
		return nil, fmt.Errorf("speaker: fuse parts of a %T; want the \"go\" driver", b)
	}
	fs := make([][]formantCand, len(p.Formants))
	for i, cs := range p.Formants {
		for _, c := range cs {
			fs[i] = append(fs[i], formantCand{f: c.F, bw: c.BW})
		}
	}
	sh := sharesFor(p.Frames, len(thirdFormants(fs)), p.SNR)
	return l.m.fuse(p.Static, p.Delta, pitchEncoding(p.LogF0), formantEncoding(fs), sh), nil
}
