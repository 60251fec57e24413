package sphinx

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
)

// cutLine splits data after its first line: the line without its "\n"
// and the rest (nil after the last line).
func cutLine(data []byte) (line, rest []byte) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i], data[i+1:]
	}
	return data, nil
}

// isTextMdef reports whether data starts (after "#" comment lines and
// blank lines) with the "0.3" version line of a text model definition.
func isTextMdef(data []byte) bool {
	for len(data) > 0 {
		var line []byte
		line, data = cutLine(data)
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		return string(t) == "0.3"
	}
	return false
}

// parseTextMdef reads the text model definition SphinxTrain writes:
//
//	0.3
//	N n_base
//	N n_tri
//	N n_state_map        (phones × (emitting states + 1))
//	N n_tied_state       (senones)
//	N n_tied_ci_state
//	N n_tied_tmat
//	base left right pos attrib tmat s0 … s(n-1) N
//
// one phone per line, the CI phones first ("-" for their contexts and
// position; pos is b, e, i or s; attrib is "filler" or "n/a"). Identical
// senone sequences are shared and the triphone lookup tree is built the way
// the binary format stores it.
func parseTextMdef(name string, data []byte) (*Mdef, error) {
	type line struct {
		no     int
		fields [][]byte
	}
	var lines []line
	no := 0
	for len(data) > 0 {
		no++
		var l []byte
		l, data = cutLine(data)
		t := bytes.TrimSpace(l)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		lines = append(lines, line{no, bytes.Fields(t)})
	}
	if len(lines) < 7 {
		return nil, fmt.Errorf("sphinx: %s: text model definition has %d lines: %w", name, len(lines), errTruncated)
	}
	keys := []string{"n_base", "n_tri", "n_state_map", "n_tied_state", "n_tied_ci_state", "n_tied_tmat"}
	limits := [][2]int{{1, 255}, {0, 1 << 24}, {1, 1 << 28}, {1, 1 << 16}, {1, 1 << 16}, {1, 1 << 16}}
	var h [6]int
	for i, k := range keys {
		l := lines[1+i]
		if len(l.fields) != 2 || string(l.fields[1]) != k {
			return nil, fmt.Errorf("sphinx: %s:%d: want \"<count> %s\"", name, l.no, k)
		}
		v, err := strconv.Atoi(string(l.fields[0]))
		if err != nil || v < limits[i][0] || v > limits[i][1] {
			return nil, fmt.Errorf("sphinx: %s:%d: %s %q out of range [%d,%d]", name, l.no, k, l.fields[0], limits[i][0], limits[i][1])
		}
		h[i] = v
	}
	nCI, nTri, nMap, nSen, nCISen, nTmat := h[0], h[1], h[2], h[3], h[4], h[5]
	nPhone := nCI + nTri
	if nMap%nPhone != 0 || nMap/nPhone < 2 || nMap/nPhone > 17 {
		return nil, fmt.Errorf("sphinx: %s: n_state_map %d is not a multiple of %d phones with 1–16 emitting states", name, nMap, nPhone)
	}
	nEmit := nMap/nPhone - 1
	if nCISen > nSen {
		return nil, fmt.Errorf("sphinx: %s: %d CI senones > %d senones", name, nCISen, nSen)
	}
	body := lines[7:]
	if len(body) != nPhone {
		return nil, fmt.Errorf("sphinx: %s: %d phone lines, header says %d + %d", name, len(body), nCI, nTri)
	}
	m := &Mdef{NEmit: nEmit, NCISen: nCISen, NSen: nSen, NTmat: nTmat, Sil: -1, ciByName: map[string]int{}, Phones: make([]Phone, nPhone)}
	sseqs := map[string]int32{}
	seq := make([]uint16, nEmit)
	type triKey struct {
		pos                      WordPos
		base, left, right, phone int
	}
	tris := make([]triKey, 0, nTri)
	seen := map[[4]int]bool{}
	for i, l := range body {
		f := l.fields
		if len(f) != 7+nEmit || string(f[len(f)-1]) != "N" {
			return nil, fmt.Errorf("sphinx: %s:%d: want %d fields ending in N, got %d", name, l.no, 7+nEmit, len(f))
		}
		p := &m.Phones[i]
		tm, err := strconv.Atoi(string(f[5]))
		if err != nil || tm < 0 || tm >= nTmat {
			return nil, fmt.Errorf("sphinx: %s:%d: transition matrix %q out of range [0,%d)", name, l.no, f[5], nTmat)
		}
		p.Tmat = int32(tm)
		for j := range nEmit {
			s, err := strconv.Atoi(string(f[6+j]))
			if err != nil || s < 0 || s >= nSen {
				return nil, fmt.Errorf("sphinx: %s:%d: senone %q out of range [0,%d)", name, l.no, f[6+j], nSen)
			}
			seq[j] = uint16(s)
		}
		k := string(u16Key(seq))
		id, ok := sseqs[k]
		if !ok {
			id = int32(len(sseqs))
			sseqs[k] = id
			m.SSeq = append(m.SSeq, seq...)
		}
		p.SSeq = id
		if i < nCI {
			if string(f[1]) != "-" || string(f[2]) != "-" || string(f[3]) != "-" {
				return nil, fmt.Errorf("sphinx: %s:%d: CI phone %q has a context or position", name, l.no, f[0])
			}
			n := string(f[0])
			if _, dup := m.ciByName[n]; dup {
				return nil, fmt.Errorf("sphinx: %s:%d: duplicate CI phone %q", name, l.no, n)
			}
			m.ciByName[n] = i
			m.CIName = append(m.CIName, n)
			p.Filler = string(f[4]) == "filler"
			p.Base, p.Left, p.Right = int16(i), -1, -1
			continue
		}
		var ids [3]int
		for j := range ids {
			id, ok := m.ciByName[string(f[j])]
			if !ok {
				return nil, fmt.Errorf("sphinx: %s:%d: unknown CI phone %q", name, l.no, f[j])
			}
			ids[j] = id
		}
		var pos WordPos
		switch string(f[3]) {
		case "i":
			pos = PosInternal
		case "b":
			pos = PosBegin
		case "e":
			pos = PosEnd
		case "s":
			pos = PosSingle
		default:
			return nil, fmt.Errorf("sphinx: %s:%d: word position %q is not b, e, i or s", name, l.no, f[3])
		}
		key := [4]int{int(pos), ids[0], ids[1], ids[2]}
		if seen[key] {
			return nil, fmt.Errorf("sphinx: %s:%d: triphone %s %s %s %s defined twice", name, l.no, f[0], f[1], f[2], f[3])
		}
		seen[key] = true
		p.Pos = pos
		p.Base, p.Left, p.Right = int16(ids[0]), int16(ids[1]), int16(ids[2])
		tris = append(tris, triKey{pos, ids[0], ids[1], ids[2], i})
	}
	// The lookup tree: word position → base → left → right, each node's
	// children contiguous, as the binary format lays it out.
	slices.SortFunc(tris, func(a, b triKey) int {
		if a.pos != b.pos {
			return int(a.pos) - int(b.pos)
		}
		if a.base != b.base {
			return a.base - b.base
		}
		if a.left != b.left {
			return a.left - b.left
		}
		return a.right - b.right
	})
	ctx := func(t triKey, level int) int {
		return [4]int{int(t.pos), t.base, t.left, t.right}[level]
	}
	m.cdTree = make([]cdNode, nWordPos)
	var build func(node int, items []triKey, level int)
	build = func(node int, items []triKey, level int) {
		start := len(m.cdTree)
		n := 0
		for i := 0; i < len(items); {
			j := i
			for j < len(items) && ctx(items[j], level) == ctx(items[i], level) {
				j++
			}
			nd := cdNode{ctx: int16(ctx(items[i], level)), down: -1}
			if level == 3 {
				nd.down = int32(items[i].phone)
			}
			m.cdTree = append(m.cdTree, nd)
			n++
			i = j
		}
		m.cdTree[node].down, m.cdTree[node].nDown = int32(start), int16(n)
		if level == 3 {
			return
		}
		k := 0
		for i := 0; i < len(items); k++ {
			j := i
			for j < len(items) && ctx(items[j], level) == ctx(items[i], level) {
				j++
			}
			build(start+k, items[i:j], level+1)
			i = j
		}
	}
	for p := range nWordPos {
		m.cdTree[p] = cdNode{ctx: int16(p), down: -1}
		lo := 0
		for lo < len(tris) && tris[lo].pos < p {
			lo++
		}
		hi := lo
		for hi < len(tris) && tris[hi].pos == p {
			hi++
		}
		if hi > lo {
			build(int(p), tris[lo:hi], 1)
		}
	}
	if err := m.finish(name); err != nil {
		return nil, err
	}
	return m, nil
}

// u16Key returns the little-endian bytes of s as a map key.
func u16Key(s []uint16) []byte {
	b := make([]byte, 2*len(s))
	for i, v := range s {
		b[2*i], b[2*i+1] = byte(v), byte(v>>8)
	}
	return b
}
