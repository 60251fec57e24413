package main

// Error analysis of the second search (-analysis): the reference and the
// hypothesis of every recording are aligned (Levenshtein, with the
// operations kept), and each error is counted by kind (substitution,
// deletion, insertion), by position (the first or last word of the
// recording, the first or last word of a speech region, inside a region),
// by the recording's length, and by word class (function word, word not
// in the pronouncing dictionary). It runs on the dev part only: the
// sealed part's per-file output is not to be looked at.

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/sottolabs/sotto/asr"
)

// hypToken is one normalised hypothesis word with the speech region that
// produced it.
type hypToken struct {
	text   string
	region int
}

// hypTokens normalises the words of the segments one by one, keeping each
// word's region (the segment ID is the region index).
func hypTokens(ctx context.Context, segs []asr.Segment) []hypToken {
	var out []hypToken
	for _, s := range segs {
		for _, w := range s.Words {
			for _, t := range norm(ctx, w.Word) {
				out = append(out, hypToken{t, s.ID})
			}
		}
	}
	return out
}

// Alignment operations.
const (
	opMatch = iota
	opSub
	opDel
	opIns
)

// alignOp is one step of an alignment: ref index i (-1 for an insertion)
// and hyp index j (-1 for a deletion).
type alignOp struct{ op, i, j int }

// alignWords returns a minimum-edit alignment of ref and hyp, in order.
// Ties prefer a match or substitution, then a deletion, then an insertion.
func alignWords(ref, hyp []string) []alignOp {
	n, m := len(ref), len(hyp)
	d := make([][]int, n+1)
	for i := range d {
		d[i] = make([]int, m+1)
		d[i][0] = i
	}
	for j := range m + 1 {
		d[0][j] = j
	}
	for i := 1; i <= n; i++ {
		for j := 1; j <= m; j++ {
			c := d[i-1][j-1]
			if ref[i-1] != hyp[j-1] {
				c++
			}
			d[i][j] = min(c, d[i-1][j]+1, d[i][j-1]+1)
		}
	}
	var ops []alignOp
	for i, j := n, m; i > 0 || j > 0; {
		switch {
		case i > 0 && j > 0 && ref[i-1] == hyp[j-1] && d[i][j] == d[i-1][j-1]:
			ops = append(ops, alignOp{opMatch, i - 1, j - 1})
			i, j = i-1, j-1
		case i > 0 && j > 0 && d[i][j] == d[i-1][j-1]+1:
			ops = append(ops, alignOp{opSub, i - 1, j - 1})
			i, j = i-1, j-1
		case i > 0 && d[i][j] == d[i-1][j]+1:
			ops = append(ops, alignOp{opDel, i - 1, -1})
			i--
		default:
			ops = append(ops, alignOp{opIns, -1, j - 1})
			j--
		}
	}
	slices.Reverse(ops)
	return ops
}

// functionWords are English closed-class words: articles, pronouns,
// prepositions, conjunctions, auxiliaries and the like.
var functionWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or but nor so yet if then than that this these those
	i me my mine we us our ours you your yours he him his she her hers it its they them their theirs
	who whom whose which what where when why how there here
	of in on at to for from by with about as into onto upon over under after before between through
	during without within out up down off against among around along across behind beyond near
	is am are was were be been being do does did done have has had having will would shall should
	can could may might must not no nor n't 's 'll 've 're 'd
	all any some each every both either neither one such only own same too very just also even
	i'm i've i'd i'll you're you've we're we've they're they've he's she's it's that's there's
	don't doesn't didn't isn't wasn't aren't weren't can't couldn't won't wouldn't shouldn't hasn't haven't hadn't`) {
		functionWords[w] = true
	}
}

// loadDictWords reads the words of a Sphinx pronouncing dictionary
// (alternative pronunciations "word(2)" folded into "word").
func loadDictWords(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	words := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w, _, _ := strings.Cut(sc.Text(), " ")
		if i := strings.IndexByte(w, '('); i > 0 {
			w = w[:i]
		}
		if w != "" {
			words[strings.ToLower(w)] = true
		}
	}
	return words, sc.Err()
}

// counts is errors of each kind over a number of reference words.
type counts struct{ words, sub, del, ins int }

func (c *counts) add(op int) {
	switch op {
	case opMatch:
		c.words++
	case opSub:
		c.words++
		c.sub++
	case opDel:
		c.words++
		c.del++
	case opIns:
		c.ins++
	}
}

func (c counts) errs() int { return c.sub + c.del + c.ins }

// alignmentText shows an alignment on one line: matched words as they
// are, a substitution as ref→hyp, a deletion as -ref, an insertion as +hyp,
// and "|" where the hypothesis passes from one region to the next.
func alignmentText(ops []alignOp, ref []string, hyp []hypToken) string {
	var parts []string
	last := -1
	for _, o := range ops {
		if o.j >= 0 {
			if last >= 0 && hyp[o.j].region != hyp[last].region {
				parts = append(parts, "|")
			}
			last = o.j
		}
		switch o.op {
		case opMatch:
			parts = append(parts, ref[o.i])
		case opSub:
			parts = append(parts, ref[o.i]+"→"+hyp[o.j].text)
		case opDel:
			parts = append(parts, "-"+ref[o.i])
		case opIns:
			parts = append(parts, "+"+hyp[o.j].text)
		}
	}
	return strings.Join(parts, " ")
}

// errorAnalysis writes the tables of the analysis as Markdown to path and
// the alignment of every recording to path less ".md" plus ".align.txt".
func errorAnalysis(path, dictPath string, items []*item) error {
	dict, err := loadDictWords(dictPath)
	if err != nil {
		return err
	}
	var total counts
	byPos := map[string]*counts{}
	byLen := map[string]*counts{}
	byLenFiles := map[string]int{}
	byClass := map[string]*counts{}
	byRegions := map[string]*counts{}
	byRegionsFiles := map[string]int{}
	subs, dels, inss := map[string]int{}, map[string]int{}, map[string]int{}
	type fileErr struct {
		base string
		errs int
	}
	var files []fileErr
	get := func(m map[string]*counts, k string) *counts {
		if m[k] == nil {
			m[k] = &counts{}
		}
		return m[k]
	}
	oovRef, refWords := 0, 0
	var al strings.Builder // per-file alignments
	for _, it := range items {
		hyp := make([]string, len(it.hypTok))
		for j, t := range it.hypTok {
			hyp[j] = t.text
		}
		ops := alignWords(it.ref, hyp)
		lenBin := lengthBin(it.dur)
		byLenFiles[lenBin]++
		nreg := map[int]bool{}
		for _, t := range it.hypTok {
			nreg[t.region] = true
		}
		regBin := "0 regions (no words)"
		switch {
		case len(nreg) == 1:
			regBin = "1 region"
		case len(nreg) > 1:
			regBin = "2+ regions"
		}
		byRegionsFiles[regBin]++
		fe := 0
		for k, o := range ops {
			total.add(o.op)
			get(byPos, position(o, k, ops, it.hypTok)).add(o.op)
			get(byLen, lenBin).add(o.op)
			get(byRegions, regBin).add(o.op)
			w := ""
			if o.i >= 0 {
				w = it.ref[o.i]
			} else {
				w = hyp[o.j]
			}
			cls := "content word"
			switch {
			case o.i >= 0 && !dict[w]:
				cls = "not in the dictionary (OOV)"
			case functionWords[w]:
				cls = "function word"
			}
			get(byClass, cls).add(o.op)
			switch o.op {
			case opSub:
				subs[it.ref[o.i]+" → "+hyp[o.j]]++
			case opDel:
				dels[it.ref[o.i]]++
			case opIns:
				inss[hyp[o.j]]++
			}
			if o.op != opMatch {
				fe++
			}
		}
		for _, w := range it.ref {
			refWords++
			if !dict[w] {
				oovRef++
			}
		}
		files = append(files, fileErr{it.base, fe})
		fmt.Fprintf(&al, "%s (%.1f s, %d errors)\n%s\n", it.base, it.dur, fe, alignmentText(ops, it.ref, it.hypTok))
	}
	if err := os.WriteFile(strings.TrimSuffix(path, ".md")+".align.txt", []byte(al.String()), 0o644); err != nil {
		return err
	}
	var b strings.Builder
	pct := func(a, n int) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprintf("%.1f %%", 100*float64(a)/float64(n))
	}
	fmt.Fprintf(&b, "%d recordings, %d reference words, %d errors (WER %.3f): %d substitutions, %d deletions, %d insertions. %d reference words (%s) are not in the pronouncing dictionary.\n\n",
		len(items), total.words, total.errs(), ratio(total.errs(), total.words), total.sub, total.del, total.ins, oovRef, pct(oovRef, refWords))
	table := func(title string, m map[string]*counts, order []string, nfiles map[string]int) {
		fmt.Fprintf(&b, "| %s | files | ref words | S | D | I | errors | WER | share of errors |\n|---|---|---|---|---|---|---|---|---|\n", title)
		for _, k := range order {
			c := m[k]
			if c == nil {
				continue
			}
			nf := "-"
			if nfiles != nil {
				nf = fmt.Sprint(nfiles[k])
			}
			fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %d | %.3f | %s |\n", k, nf, c.words, c.sub, c.del, c.ins, c.errs(), ratio(c.errs(), c.words), pct(c.errs(), total.errs()))
		}
		b.WriteString("\n")
	}
	table("position (of the hypothesis word; a deletion by its neighbours)", byPos, positions, nil)
	table("recording length", byLen, lengthBins, byLenFiles)
	table("regions with words", byRegions, []string{"0 regions (no words)", "1 region", "2+ regions"}, byRegionsFiles)
	table("word class (reference word; insertions by the inserted word)", byClass, []string{"function word", "content word", "not in the dictionary (OOV)"}, nil)
	top := func(title string, m map[string]int, n int) {
		type kv struct {
			k string
			v int
		}
		var l []kv
		sum := 0
		for k, v := range m {
			l = append(l, kv{k, v})
			sum += v
		}
		slices.SortFunc(l, func(a, b kv) int { return cmp.Or(b.v-a.v, strings.Compare(a.k, b.k)) })
		var parts []string
		for _, e := range l[:min(n, len(l))] {
			parts = append(parts, fmt.Sprintf("%s %d", e.k, e.v))
		}
		fmt.Fprintf(&b, "- %s (%d in all, %d distinct): %s\n", title, sum, len(l), strings.Join(parts, ", "))
	}
	top("Most frequent substitutions", subs, 15)
	top("Most frequent deletions", dels, 15)
	top("Most frequent insertions", inss, 15)
	slices.SortFunc(files, func(a, b fileErr) int { return cmp.Or(b.errs-a.errs, strings.Compare(a.base, b.base)) })
	var parts []string
	cum := 0
	for _, f := range files[:min(5, len(files))] {
		parts = append(parts, fmt.Sprintf("%s %d", f.base, f.errs))
		cum += f.errs
	}
	fmt.Fprintf(&b, "- The five recordings with most errors: %s (%s of all errors).\n", strings.Join(parts, ", "), pct(cum, total.errs()))
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

var positions = []string{"recording's first word", "recording's last word", "region's first or last word (not the recording's)", "inside a region", "no hypothesis words"}

// position classifies an alignment step by where it falls in the
// hypothesis: at the recording's first or last word, at a region's first
// or last word, or inside a region. A deletion takes the position of the
// gap between its neighbouring hypothesis words.
func position(o alignOp, k int, ops []alignOp, hyp []hypToken) string {
	if len(hyp) == 0 {
		return positions[4]
	}
	if o.j >= 0 {
		j := o.j
		switch {
		case j == 0:
			return positions[0]
		case j == len(hyp)-1:
			return positions[1]
		case hyp[j-1].region != hyp[j].region || hyp[j+1].region != hyp[j].region:
			return positions[2]
		}
		return positions[3]
	}
	prev, next := -1, -1
	for l := k - 1; l >= 0; l-- {
		if ops[l].j >= 0 {
			prev = ops[l].j
			break
		}
	}
	for l := k + 1; l < len(ops); l++ {
		if ops[l].j >= 0 {
			next = ops[l].j
			break
		}
	}
	switch {
	case prev < 0:
		return positions[0]
	case next < 0:
		return positions[1]
	case hyp[prev].region != hyp[next].region:
		return positions[2]
	}
	return positions[3]
}

var lengthBins = []string{"< 4 s", "4-8 s", "8-15 s", "≥ 15 s"}

func lengthBin(sec float64) string {
	switch {
	case sec < 4:
		return lengthBins[0]
	case sec < 8:
		return lengthBins[1]
	case sec < 15:
		return lengthBins[2]
	}
	return lengthBins[3]
}
