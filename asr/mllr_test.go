package asr

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/sottolabs/sotto/backend"
)

// TestGoMLLROptions checks that bad MLLR options fail at Open, before the
// model loads, naming the option, and that good ones parse.
func TestGoMLLROptions(t *testing.T) {
	for _, o := range []map[string]string{
		{OptAdaptSpace: "model"},
		{OptMLLRClasses: "4"},
		{OptMLLRClasses: "0"},
		{OptMLLRPrior: "-1"},
		{OptMLLRPrior: "lots"},
	} {
		_, err := openSphinx(context.Background(), backend.Config{Options: o})
		if err == nil {
			t.Errorf("openSphinx(%v) = nil error; want one", o)
			continue
		}
		for k := range o {
			if !strings.Contains(err.Error(), k) {
				t.Errorf("openSphinx(%v) = %v; want the option named", o, err)
			}
		}
	}
	for _, c := range []struct {
		o               map[string]string
		features, means bool
		classes         int
		prior           float64
	}{
		{map[string]string{}, true, false, 1, 1000},
		{map[string]string{OptAdaptSpace: "means", OptMLLRClasses: "3"}, false, true, 3, 1000},
		{map[string]string{OptAdaptSpace: "both", OptMLLRPrior: "50"}, true, true, 1, 50},
	} {
		got, err := parseMLLR(c.o)
		want := mllrConfig{features: c.features, means: c.means, classes: c.classes, prior: c.prior}
		if err != nil || got != want {
			t.Errorf("parseMLLR(%v) = %+v, %v; want %+v", c.o, got, err, want)
		}
	}
}

// TestGoMLLRAdapt decodes jfk with the means adapted (alone and after
// fMLLR, 1 to 3 classes): the adapted model differs from the decoder's,
// and the decoding still finds the words every decent pass finds.
func TestGoMLLRAdapt(t *testing.T) {
	base := goBackend(t).(*sphinxASR)
	a := jfk(t)
	for _, c := range []mllrConfig{
		{means: true, classes: 1, prior: 1000},
		{features: true, means: true, classes: 2, prior: 1000},
		{means: true, classes: 3, prior: 100},
	} {
		s := *base
		s.adapt, s.adaptMinFrames, s.mllr = adaptTree, 300, c
		tr, err := Transcribe(context.Background(), &s, a, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v: %q", c, tr.Text)
		checkJFKWords(t, fmt.Sprintf("%+v: Transcribe(jfk)", c), tr.Text)
	}
	// The adaptation itself: a model with other means, and none when
	// the file has too few frames.
	cep, _, err := base.am.Cepstra(context.Background(), a.Samples)
	if err != nil {
		t.Fatal(err)
	}
	nc := base.am.Params.NCep
	regions := speechRegions(cep, nc)
	s := *base
	s.adapt, s.adaptMinFrames, s.mllr = adaptTree, 300, mllrConfig{means: true, classes: 2, prior: 1000}
	aligned := make([][]alignedFrame, len(regions))
	for i, r := range regions {
		o, err := s.decodeRegion(context.Background(), cep, nc, r, phaseFirst, nil, nil, nil, nil, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		aligned[i] = o.aligned
	}
	xf, am, err := s.adaptation(context.Background(), cep, nc, regions, aligned)
	if err != nil || xf != nil || am == nil || am == base.am {
		t.Fatalf("adaptation(means) = %v, %v, %v; want no feature transform and an adapted model", xf, am, err)
	}
	s.adaptMinFrames = 1e9
	if _, am, err := s.adaptation(context.Background(), cep, nc, regions, aligned); err != nil || am != nil {
		t.Errorf("adaptation with too few frames = %v, %v; want no adapted model", am, err)
	}
}
