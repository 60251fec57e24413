package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/sottolabs/sotto/speaker/internal/parts"
)

// speakerFold puts a speaker in fold 0 or 1 by a fixed hash of its id.
func speakerFold(id string) int {
	h := fnv.New32a()
	h.Write([]byte(id))
	return int(h.Sum32() % 2)
}

// scatter is the within-recording scatter of unit-length vectors: the
// mean over recordings' windows of (x - recording mean)(x - mean)ᵀ.
func scatter(recs [][][]float64) (s []float64, d, n int) {
	for _, r := range recs {
		if len(r) > 0 {
			d = len(r[0])
			break
		}
	}
	s = make([]float64, d*d)
	for _, r := range recs {
		if len(r) < 2 {
			continue
		}
		m := make([]float64, d)
		for _, x := range r {
			for i := range x {
				m[i] += x[i] / float64(len(r))
			}
		}
		for _, x := range r {
			for i := range d {
				di := x[i] - m[i]
				for j := range d {
					s[i*d+j] += di * (x[j] - m[j])
				}
			}
			n++
		}
	}
	for i := range s {
		s[i] /= float64(n)
	}
	return s, d, n
}

// between is the scatter of the means of the recordings with at least
// two windows around their mean, each recording weighing by its windows.
func between(recs [][][]float64) []float64 {
	var d int
	for _, r := range recs {
		if len(r) > 0 {
			d = len(r[0])
			break
		}
	}
	var ms [][]float64
	var ws []float64
	g := make([]float64, d)
	var tw float64
	for _, r := range recs {
		if len(r) < 2 {
			continue
		}
		m := make([]float64, d)
		for _, x := range r {
			for i := range x {
				m[i] += x[i] / float64(len(r))
			}
		}
		ms, ws = append(ms, m), append(ws, float64(len(r)))
		for i := range m {
			g[i] += float64(len(r)) * m[i]
		}
		tw += float64(len(r))
	}
	for i := range g {
		g[i] /= tw
	}
	s := make([]float64, d*d)
	for k, m := range ms {
		for i := range d {
			for j := range d {
				s[i*d+j] += ws[k] * (m[i] - g[i]) * (m[j] - g[j]) / tw
			}
		}
	}
	return s
}

// jacobiEigen returns the eigenvalues (descending) and eigenvectors (rows
// of vec, unit length) of the symmetric d×d matrix a (cyclic Jacobi).
func jacobiEigen(a []float64, d int) (val []float64, vec [][]float64) {
	m := slices.Clone(a)
	v := make([]float64, d*d)
	for i := range d {
		v[i*d+i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		var off float64
		for i := range d {
			for j := i + 1; j < d; j++ {
				off += m[i*d+j] * m[i*d+j]
			}
		}
		if off < 1e-30 {
			break
		}
		for p := range d {
			for q := p + 1; q < d; q++ {
				apq := m[p*d+q]
				if math.Abs(apq) < 1e-300 {
					continue
				}
				theta := (m[q*d+q] - m[p*d+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := range d {
					mkp, mkq := m[k*d+p], m[k*d+q]
					m[k*d+p] = c*mkp - s*mkq
					m[k*d+q] = s*mkp + c*mkq
				}
				for k := range d {
					mpk, mqk := m[p*d+k], m[q*d+k]
					m[p*d+k] = c*mpk - s*mqk
					m[q*d+k] = s*mpk + c*mqk
				}
				for k := range d {
					vkp, vkq := v[k*d+p], v[k*d+q]
					v[k*d+p] = c*vkp - s*vkq
					v[k*d+q] = s*vkp + c*vkq
				}
			}
		}
	}
	idx := make([]int, d)
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(x, y int) int {
		switch {
		case m[x*d+x] > m[y*d+y]:
			return -1
		case m[x*d+x] < m[y*d+y]:
			return 1
		}
		return 0
	})
	for _, i := range idx {
		val = append(val, m[i*d+i])
		e := make([]float64, d)
		for k := range d {
			e[k] = v[k*d+i]
		}
		vec = append(vec, e)
	}
	return val, vec
}

// eig is the eigen decomposition of one part's within-recording scatter.
type eig struct {
	val []float64
	vec [][]float64
	// sb is the scatter of the recordings' means (d×d), d the dimension.
	sb []float64
	d  int
	// sw is the within-recording scatter itself.
	sw []float64
}

// linMap maps a vector (nil: unchanged).
type linMap func(x []float64) []float64

// napMap projects out the top k eigenvectors.
func napMap(e eig, k int) linMap {
	if k == 0 {
		return nil
	}
	return func(x []float64) []float64 {
		y := slices.Clone(x)
		for _, v := range e.vec[:k] {
			c := dot(v, x)
			for i := range y {
				y[i] -= c * v[i]
			}
		}
		return y
	}
}

// shrinkMap is (I + a·S/λ̄)^(-1/2), λ̄ the mean eigenvalue.
func shrinkMap(e eig, a float64) linMap {
	if a == 0 {
		return nil
	}
	var mean float64
	for _, l := range e.val {
		mean += l / float64(len(e.val))
	}
	return func(x []float64) []float64 {
		y := slices.Clone(x)
		for i, v := range e.vec {
			c := dot(v, x) * (1/math.Sqrt(1+a*max(e.val[i], 0)/mean) - 1)
			for j := range y {
				y[j] += c * v[j]
			}
		}
		return y
	}
}

// ratioMap projects out the k eigenvectors of the within-recording
// scatter among its top 32 whose variance within recordings is largest
// against their variance between recordings' means.
func ratioMap(e eig, k int) linMap {
	type r struct {
		i int
		q float64
	}
	var rs []r
	for i, v := range e.vec[:32] {
		rs = append(rs, r{i, e.val[i] / quad(e.sb, e.d, v)})
	}
	slices.SortFunc(rs, func(a, b r) int {
		if a.q > b.q {
			return -1
		}
		if a.q < b.q {
			return 1
		}
		return 0
	})
	sel := eig{}
	for _, x := range rs[:k] {
		sel.vec = append(sel.vec, e.vec[x.i])
	}
	return napMap(sel, k)
}

func quad(a []float64, d int, v []float64) float64 {
	var s float64
	for i := range d {
		for j := range d {
			s += v[i] * a[i*d+j] * v[j]
		}
	}
	return s
}

// ldaMap removes, by an oblique projection, the k directions where the
// within-recording scatter is largest against the total (S_w + S_b,
// regularised by delta × its mean eigenvalue on the diagonal).
func ldaMap(e eig, k int, delta float64) linMap {
	d := e.d
	st := make([]float64, d*d)
	var tr float64
	for i := range st {
		st[i] = e.sw[i] + e.sb[i]
	}
	for i := range d {
		tr += st[i*d+i] / float64(d)
	}
	for i := range d {
		st[i*d+i] += delta * tr
	}
	tv, tvec := jacobiEigen(st, d)
	// T = S_t^(-1/2), Ti = S_t^(1/2)
	T := make([]float64, d*d)
	Ti := make([]float64, d*d)
	for k2, v := range tvec {
		a, b := 1/math.Sqrt(tv[k2]), math.Sqrt(tv[k2])
		for i := range d {
			for j := range d {
				T[i*d+j] += a * v[i] * v[j]
				Ti[i*d+j] += b * v[i] * v[j]
			}
		}
	}
	A := mul(mul(T, e.sw, d), T, d)
	_, u := jacobiEigen(A, d)
	var an, syn [][]float64
	for _, ui := range u[:k] {
		an = append(an, mulVec(T, d, ui))
		syn = append(syn, mulVec(Ti, d, ui))
	}
	return func(x []float64) []float64 {
		y := slices.Clone(x)
		for i := range an {
			c := dot(an[i], x)
			for j := range y {
				y[j] -= c * syn[i][j]
			}
		}
		return y
	}
}

func mul(a, b []float64, d int) []float64 {
	c := make([]float64, d*d)
	for i := range d {
		for k := range d {
			if a[i*d+k] == 0 {
				continue
			}
			for j := range d {
				c[i*d+j] += a[i*d+k] * b[k*d+j]
			}
		}
	}
	return c
}

func mulVec(a []float64, d int, x []float64) []float64 {
	y := make([]float64, d)
	for i := range d {
		for j := range d {
			y[i] += a[i*d+j] * x[j]
		}
	}
	return y
}

// napVariant maps each part given one fold's decompositions.
type napVariant struct {
	name string
	f    func(st, de eig) (linMap, linMap)
}

func scoreNap(arg string) error {
	wp, pp, ok := strings.Cut(arg, ",")
	if !ok {
		return fmt.Errorf("-napscore WINDOWS,PARTS")
	}
	var nd napDump
	if err := readGob(wp, &nd); err != nil {
		return err
	}
	var pd partsDump
	if err := readGob(pp, &pd); err != nil {
		return err
	}
	// One decomposition per fold, from the recordings of the other fold's
	// speakers and of the non-trial cohort.
	var st, de [2]eig
	var ost, ode eig // diagnostic: from every recording, the trial speakers' own included
	for f := range 3 {
		var rs, rd [][][]float64
		nrec := 0
		for file, ws := range nd.Win {
			if strings.HasSuffix(file, "|noisy") {
				continue
			}
			if id, ok := nd.Speaker[file]; ok && speakerFold(id) == f && f < 2 {
				continue
			}
			// A recording's noisy copy, if stored, is of its session.
			ws = append(slices.Clone(ws), nd.Win[file+"|noisy"]...)
			var xs, ys [][]float64
			for _, w := range ws {
				xs = append(xs, unit(w.Static))
				ys = append(ys, unit(w.DeltaProj))
			}
			rs, rd = append(rs, xs), append(rd, ys)
			nrec++
		}
		s, d, n := scatter(rs)
		if f == 2 {
			ost.val, ost.vec = jacobiEigen(s, d)
			ost.sw, ost.sb, ost.d = s, between(rs), d
			s2, d2, _ := scatter(rd)
			ode.val, ode.vec = jacobiEigen(s2, d2)
			ode.sw, ode.sb, ode.d = s2, between(rd), d2
			fmt.Printf("all recordings (diagnostic): %d recordings, %d windows\n", nrec, n)
			continue
		}
		st[f].val, st[f].vec = jacobiEigen(s, d)
		st[f].sw, st[f].sb, st[f].d = s, between(rs), d
		s2, d2, _ := scatter(rd)
		de[f].val, de[f].vec = jacobiEigen(s2, d2)
		de[f].sw, de[f].sb, de[f].d = s2, between(rd), d2
		fmt.Printf("fold %d: %d recordings, %d windows; static top eigenvalues %s (sum %.4f)\n", f, nrec, n, fmtVals(st[f].val[:8]), sumOf(st[f].val))
	}
	// Trials kept: both speakers in one fold.
	kept := map[string][]trial2{}
	for set, ts := range pd.Trials {
		var nk, nt int
		for _, t := range ts {
			a, b := nd.Speaker[t.A], nd.Speaker[t.B]
			if a == "" || b == "" {
				return fmt.Errorf("no speaker for %s or %s", t.A, t.B)
			}
			if speakerFold(a) == speakerFold(b) {
				kept[set] = append(kept[set], t)
				if t.Same {
					nt++
				}
				nk++
			}
		}
		fmt.Printf("%s: %d of %d dev trials kept (%d targets)\n", set, nk, len(ts), nt)
	}
	vs := []napVariant{{"v8", func(_, _ eig) (linMap, linMap) { return nil, nil }}}
	for _, k := range []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32} {
		vs = append(vs, napVariant{fmt.Sprintf("nap static k %d", k), func(s, _ eig) (linMap, linMap) { return napMap(s, k), nil }})
	}
	for _, k := range []int{1, 2, 4, 8, 12} {
		vs = append(vs, napVariant{fmt.Sprintf("nap delta k %d", k), func(_, d eig) (linMap, linMap) { return nil, napMap(d, k) }})
	}
	for _, k := range []int{2, 4, 8} {
		for _, kd := range []int{2, 4} {
			vs = append(vs, napVariant{fmt.Sprintf("nap static k %d delta k %d", k, kd), func(s, d eig) (linMap, linMap) { return napMap(s, k), napMap(d, kd) }})
		}
	}
	for _, a := range []float64{0.25, 0.5, 1, 2, 4, 8} {
		vs = append(vs, napVariant{fmt.Sprintf("shrink static a %g", a), func(s, _ eig) (linMap, linMap) { return shrinkMap(s, a), nil }})
		vs = append(vs, napVariant{fmt.Sprintf("shrink both a %g", a), func(s, d eig) (linMap, linMap) { return shrinkMap(s, a), shrinkMap(d, a) }})
	}
	for _, k := range []int{1, 2, 4, 8} {
		vs = append(vs, napVariant{fmt.Sprintf("ratio static k %d", k), func(s, _ eig) (linMap, linMap) { return ratioMap(s, k), nil }})
		vs = append(vs, napVariant{fmt.Sprintf("ratio delta k %d", k), func(_, d eig) (linMap, linMap) { return nil, ratioMap(d, k) }})
	}
	for _, k := range []int{1, 2, 4, 8, 16} {
		for _, dl := range []float64{0.1, 1} {
			vs = append(vs, napVariant{fmt.Sprintf("lda static k %d delta %g", k, dl), func(s, _ eig) (linMap, linMap) { return ldaMap(s, k, dl), nil }})
			vs = append(vs, napVariant{fmt.Sprintf("lda delta k %d delta %g", k, dl), func(_, d eig) (linMap, linMap) { return nil, ldaMap(d, k, dl) }})
		}
	}
	for _, k := range []int{1, 2, 4, 8, 16} {
		vs = append(vs, napVariant{fmt.Sprintf("oracle nap static k %d", k), func(_, _ eig) (linMap, linMap) { return napMap(ost, k), nil }})
		vs = append(vs, napVariant{fmt.Sprintf("oracle nap delta k %d", k), func(_, _ eig) (linMap, linMap) { return nil, napMap(ode, k) }})
		vs = append(vs, napVariant{fmt.Sprintf("oracle lda static k %d", k), func(_, _ eig) (linMap, linMap) { return ldaMap(ost, k, 0.1), nil }})
	}
	for _, k := range []int{2, 4, 8} {
		for _, b := range []float64{0.3, 0.5} {
			vs = append(vs, napVariant{fmt.Sprintf("half nap static k %d beta %g", k, b), func(s, _ eig) (linMap, linMap) {
				m := napMap(s, k)
				return func(x []float64) []float64 {
					y := m(x)
					for i := range y {
						y[i] = b*y[i] + (1-b)*x[i]
					}
					return y
				}, nil
			}})
		}
	}
	for _, k := range []int{1, 2} {
		vs = append(vs, napVariant{fmt.Sprintf("nap static k %d by snr", k), func(s, _ eig) (linMap, linMap) { return napMap(s, k), nil }})
		vs = append(vs, napVariant{fmt.Sprintf("lda static k %d delta 0.1 by snr", k), func(s, _ eig) (linMap, linMap) { return ldaMap(s, k, 0.1), nil }})
	}
	sets := []string{"trials.txt", "trials-more.txt"}
	for _, v := range vs {
		if only != "" && !strings.Contains(v.name, only) && v.name != "v8" {
			continue
		}
		var maps [2][2]linMap
		for f := range 2 {
			maps[f][0], maps[f][1] = v.f(st[f], de[f])
		}
		var cache [2]map[*parts.Parts]side
		for f := range 2 {
			cache[f] = map[*parts.Parts]side{}
		}
		get := func(p *parts.Parts, f int) side {
			s, ok := cache[f][p]
			if !ok {
				s = v8Side(p)
				if m := maps[f][0]; m != nil {
					y := m(s.u[0])
					if strings.Contains(v.name, "by snr") {
						// Only where noisy: the projection faded in as the
						// estimated SNR falls from 30 to 20 dB.
						c := min(max((p.SNR-20)/10, 0), 1)
						for i := range y {
							y[i] = (1-c)*y[i] + c*s.u[0][i]
						}
					}
					s.u[0] = unit(y)
				}
				if m := maps[f][1]; m != nil {
					s.u[1] = unit(m(s.u[1]))
				}
				cache[f][p] = s
			}
			return s
		}
		var out []string
		for _, c := range evalConditions {
			ca := c
			ca.noise = false
			var sc []score
			nt := 0
			for _, set := range sets {
				for _, t := range kept[set] {
					f := speakerFold(nd.Speaker[t.A])
					for _, x := range pd.Emb[condKey(t.A, ca)] {
						for _, y := range pd.Emb[condKey(t.B, c)] {
							sc = append(sc, score{fusedScore(get(x, f), get(y, f)), t.Same})
							if t.Same {
								nt++
							}
						}
					}
				}
			}
			rate, _ := eer(sc)
			cell := fmt.Sprintf("%.1f", 100*rate)
			if v.name == "v8" {
				cell += fmt.Sprintf(" (%d/%d)", nt, len(sc))
			}
			out = append(out, cell)
		}
		fmt.Printf("%-36s %s\n", v.name, strings.Join(out, " / "))
	}
	return nil
}

func fmtVals(v []float64) string {
	var s []string
	for _, x := range v {
		s = append(s, fmt.Sprintf("%.4f", x))
	}
	return strings.Join(s, " ")
}

func sumOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}
