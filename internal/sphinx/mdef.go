package sphinx

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// WordPos is the position of a phone inside its word, as the model
// definition distinguishes triphones by it.
type WordPos uint8

// Word positions, in the order the binary model definition numbers them.
const (
	PosInternal WordPos = iota // neither first nor last phone
	PosBegin                   // first phone of a multi-phone word
	PosEnd                     // last phone of a multi-phone word
	PosSingle                  // the only phone of a word
	nWordPos
)

// Phone is one entry of the model definition: a context-independent phone
// (the first NCIPhone entries) or a triphone.
type Phone struct {
	SSeq   int32   // senone sequence id (index into Mdef.SSeq)
	Tmat   int32   // transition matrix id
	Filler bool    // CI phones only: a noise/filler phone
	Pos    WordPos // triphones only
	Base   int16   // CI id of the base phone (itself for CI phones)
	Left   int16   // CI id of the left context (-1 for CI phones)
	Right  int16   // CI id of the right context (-1 for CI phones)
}

// cdNode is one node of the triphone lookup tree: word position → base →
// left → right, whose leaves carry a phone id.
type cdNode struct {
	ctx   int16
	nDown int16
	down  int32 // index of the first child, or the phone id (-1: none) at a leaf
}

// Mdef is a model definition, read from the binary ("BMDF") or the text
// ("0.3") format: the phone inventory, the triphone lookup tree and the
// senone sequences.
type Mdef struct {
	CIName    []string // CI phone names, indexed by CI id
	NEmit     int      // emitting states per HMM
	NCISen    int      // context-independent senones
	NSen      int      // all senones
	NTmat     int      // transition matrices
	Sil       int      // CI id of "SIL", -1 if absent
	Phones    []Phone  // CI phones first, then triphones
	SSeq      []uint16 // senone sequences, NEmit senones each
	ciByName  map[string]int
	cdTree    []cdNode
	senToBase []int16 // senone → CI phone (codebook for PTM models)
}

// ParseMdef decodes a model definition in the binary format pocketsphinx
// ships or the text format SphinxTrain writes (the one continuous models
// usually carry); the format is told by the first bytes. name is used in
// errors.
func ParseMdef(name string, data []byte) (*Mdef, error) {
	if isTextMdef(data) {
		return parseTextMdef(name, data)
	}
	if len(data) < 12 {
		return nil, fmt.Errorf("sphinx: %s: %w", name, errTruncated)
	}
	var order binary.ByteOrder
	switch string(data[:4]) {
	case "BMDF":
		order = binary.LittleEndian
	case "FDMB":
		order = binary.BigEndian
	default:
		return nil, fmt.Errorf("sphinx: %s: not a binary model definition (magic %q)", name, data[:4])
	}
	off := 4
	rd := func(what string, lo, hi int) (int, error) {
		if len(data)-off < 4 {
			return 0, fmt.Errorf("sphinx: %s: reading %s: %w", name, what, errTruncated)
		}
		v := int(int32(order.Uint32(data[off:])))
		off += 4
		if v < lo || v > hi {
			return 0, fmt.Errorf("sphinx: %s: %s = %d out of range [%d,%d]", name, what, v, lo, hi)
		}
		return v, nil
	}
	if _, err := rd("version", 1, 1); err != nil {
		return nil, err
	}
	fl, err := rd("format description length", 0, len(data))
	if err != nil {
		return nil, err
	}
	if len(data)-off < fl {
		return nil, fmt.Errorf("sphinx: %s: format description: %w", name, errTruncated)
	}
	off += fl
	var h [10]int
	names := []string{"n_ciphone", "n_phone", "n_emit_state", "n_ci_sen", "n_sen", "n_tmat", "n_sseq", "n_ctx", "n_cd_tree", "sil"}
	limits := [][2]int{{1, 255}, {1, 1 << 24}, {1, 16}, {1, 1 << 16}, {1, 1 << 16}, {1, 1 << 16}, {1, 1 << 24}, {1, 3}, {0, 1 << 24}, {-1, 255}}
	for i := range h {
		if h[i], err = rd(names[i], limits[i][0], limits[i][1]); err != nil {
			return nil, err
		}
	}
	nCI, nPhone, nEmit, nCISen, nSen, nTmat, nSSeq, _, nTree := h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], h[8]
	if nPhone < nCI || nCISen > nSen {
		return nil, fmt.Errorf("sphinx: %s: inconsistent counts (phones %d < CI %d or CI senones %d > senones %d)", name, nPhone, nCI, nCISen, nSen)
	}
	m := &Mdef{NEmit: nEmit, NCISen: nCISen, NSen: nSen, NTmat: nTmat, Sil: -1, ciByName: map[string]int{}}
	start := off
	for range nCI {
		z := bytes.IndexByte(data[off:], 0)
		if z < 0 {
			return nil, fmt.Errorf("sphinx: %s: CI phone names: %w", name, errTruncated)
		}
		s := string(data[off : off+z])
		if s == "" {
			return nil, fmt.Errorf("sphinx: %s: empty CI phone name", name)
		}
		if _, dup := m.ciByName[s]; dup {
			return nil, fmt.Errorf("sphinx: %s: duplicate CI phone %q", name, s)
		}
		m.ciByName[s] = len(m.CIName)
		m.CIName = append(m.CIName, s)
		off += z + 1
	}
	off = start + (off-start+3)/4*4
	if off > len(data) || (len(data)-off)/8 < nTree {
		return nil, fmt.Errorf("sphinx: %s: triphone tree: %w", name, errTruncated)
	}
	m.cdTree = make([]cdNode, nTree)
	for i := range m.cdTree {
		n := &m.cdTree[i]
		n.ctx = int16(order.Uint16(data[off:]))
		n.nDown = int16(order.Uint16(data[off+2:]))
		n.down = int32(order.Uint32(data[off+4:]))
		off += 8
		if n.nDown < 0 || (n.nDown > 0 && (n.down < 0 || int(n.down)+int(n.nDown) > nTree)) || (n.nDown == 0 && (n.down < -1 || int(n.down) >= nPhone)) {
			return nil, fmt.Errorf("sphinx: %s: triphone tree node %d points outside the tree", name, i)
		}
	}
	if (len(data)-off)/12 < nPhone {
		return nil, fmt.Errorf("sphinx: %s: phone table: %w", name, errTruncated)
	}
	m.Phones = make([]Phone, nPhone)
	for i := range m.Phones {
		p := &m.Phones[i]
		p.SSeq = int32(order.Uint32(data[off:]))
		p.Tmat = int32(order.Uint32(data[off+4:]))
		info := data[off+8 : off+12]
		off += 12
		if p.SSeq < 0 || int(p.SSeq) >= nSSeq || p.Tmat < 0 || int(p.Tmat) >= nTmat {
			return nil, fmt.Errorf("sphinx: %s: phone %d: senone sequence %d or matrix %d out of range", name, i, p.SSeq, p.Tmat)
		}
		if i < nCI {
			p.Filler = info[0] != 0
			p.Base, p.Left, p.Right = int16(i), -1, -1
			continue
		}
		if info[0] >= byte(nWordPos) || int(info[1]) >= nCI || int(info[2]) >= nCI || int(info[3]) >= nCI {
			return nil, fmt.Errorf("sphinx: %s: phone %d: bad position or context %v", name, i, info)
		}
		p.Pos = WordPos(info[0])
		p.Base, p.Left, p.Right = int16(info[1]), int16(info[2]), int16(info[3])
	}
	size, err := rd("sseq size", 0, 1<<26)
	if err != nil {
		return nil, err
	}
	if size != nSSeq*nEmit {
		return nil, fmt.Errorf("sphinx: %s: senone sequence size %d, want %d×%d", name, size, nSSeq, nEmit)
	}
	if (len(data)-off)/2 < size {
		return nil, fmt.Errorf("sphinx: %s: senone sequences: %w", name, errTruncated)
	}
	m.SSeq = make([]uint16, size)
	for i := range m.SSeq {
		m.SSeq[i] = order.Uint16(data[off:])
		off += 2
		if int(m.SSeq[i]) >= nSen {
			return nil, fmt.Errorf("sphinx: %s: senone sequence entry %d = %d, model has %d senones", name, i, m.SSeq[i], nSen)
		}
	}
	if off != len(data) {
		return nil, fmt.Errorf("sphinx: %s: %d trailing bytes", name, len(data)-off)
	}
	if err := m.finish(name); err != nil {
		return nil, err
	}
	return m, nil
}

// finish sets the silence phone and the senone → base phone map, checking
// that every senone belongs to exactly one base phone.
func (m *Mdef) finish(name string) error {
	if s, ok := m.ciByName["SIL"]; ok {
		m.Sil = s
	}
	nSen := m.NSen
	// Senone → base CI phone, as PTM models use one codebook per CI phone.
	m.senToBase = make([]int16, nSen)
	for i := range m.senToBase {
		m.senToBase[i] = -1
	}
	for i := range m.Phones {
		p := &m.Phones[i]
		for _, s := range m.Senones(i) {
			if m.senToBase[s] >= 0 && m.senToBase[s] != p.Base {
				return fmt.Errorf("sphinx: %s: senone %d shared by base phones %s and %s", name, s, m.CIName[m.senToBase[s]], m.CIName[p.Base])
			}
			m.senToBase[s] = p.Base
		}
	}
	for s, b := range m.senToBase {
		if b < 0 {
			return fmt.Errorf("sphinx: %s: senone %d is used by no phone", name, s)
		}
	}
	return nil
}

// Senones returns the emitting-state senone ids of phone p. The slice aliases
// the model and must not be modified.
func (m *Mdef) Senones(p int) []uint16 {
	s := int(m.Phones[p].SSeq) * m.NEmit
	return m.SSeq[s : s+m.NEmit : s+m.NEmit]
}

// CIPhone returns the id of the context-independent phone called name.
func (m *Mdef) CIPhone(name string) (int, bool) {
	id, ok := m.ciByName[name]
	return id, ok
}

// SenoneBase returns the CI phone (the PTM codebook) of senone s.
func (m *Mdef) SenoneBase(s int) int { return int(m.senToBase[s]) }

// lookup walks the triphone tree for an exact (base, left, right, pos) match,
// mapping filler contexts to silence. It returns -1 when there is none.
func (m *Mdef) lookup(base, left, right int, pos WordPos) int {
	if m.Sil >= 0 && m.Phones[left].Filler {
		left = m.Sil
	}
	if m.Sil >= 0 && m.Phones[right].Filler {
		right = m.Sil
	}
	ctx := [4]int{int(pos), base, left, right}
	lo, n := 0, int(nWordPos)
	for level := 0; level < 4; level++ {
		if lo+n > len(m.cdTree) {
			return -1
		}
		i := lo
		for ; i < lo+n; i++ {
			if int(m.cdTree[i].ctx) == ctx[level] {
				break
			}
		}
		if i == lo+n {
			return -1
		}
		nd := m.cdTree[i]
		if nd.nDown == 0 {
			return int(nd.down)
		}
		lo, n = int(nd.down), int(nd.nDown)
	}
	return -1
}

// Triphone returns the phone id for base in the given left and right CI
// contexts at word position pos, backing off as the peer does: other word
// positions, then silence for filler or word-edge contexts, then the CI phone.
// A negative left or right means "no context" and yields the CI phone.
func (m *Mdef) Triphone(base, left, right int, pos WordPos) int {
	nci := len(m.CIName)
	if left < 0 || right < 0 || base < 0 || base >= nci || left >= nci || right >= nci {
		return base
	}
	if p := m.lookup(base, left, right, pos); p >= 0 {
		return p
	}
	for q := range nWordPos {
		if q != pos {
			if p := m.lookup(base, left, right, q); p >= 0 {
				return p
			}
		}
	}
	if m.Sil >= 0 {
		nl, nr := left, right
		if m.Phones[left].Filler || pos == PosBegin || pos == PosSingle {
			nl = m.Sil
		}
		if m.Phones[right].Filler || pos == PosEnd || pos == PosSingle {
			nr = m.Sil
		}
		if nl != left || nr != right {
			if p := m.lookup(base, nl, nr, pos); p >= 0 {
				return p
			}
			for q := range nWordPos {
				if q != pos {
					if p := m.lookup(base, nl, nr, q); p >= 0 {
						return p
					}
				}
			}
		}
	}
	return base
}
