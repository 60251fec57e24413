package sphinx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// MixWeights holds 8-bit quantised mixture weights from a PTM "sendump"
// file: W[(f*NDensity+d)*NSen+s] is -log(w)/logUnit for stream f, density d
// and senone s (so the log weight is -logUnit·W).
type MixWeights struct {
	NFeat, NDensity, NSen int
	W                     []uint8
}

// ParseSendump decodes a sendump file with 8-bit weights and no clustering,
// checking its declared shape against nFeat, nDensity and nSen.
func ParseSendump(name string, data []byte, nFeat, nDensity, nSen int) (*MixWeights, error) {
	off := 0
	var order binary.ByteOrder = binary.LittleEndian
	readInt := func(what string) (int, error) {
		if len(data)-off < 4 {
			return 0, fmt.Errorf("sphinx: %s: reading %s: %w", name, what, errTruncated)
		}
		v := int(int32(order.Uint32(data[off:])))
		off += 4
		return v, nil
	}
	first := true
	clusters, bits := 0, 8
	nstr := 0
	for {
		n, err := readInt("header string length")
		if err != nil {
			return nil, err
		}
		if first {
			if n < 1 || n > 999 {
				order = binary.BigEndian
				off -= 4
				if n, _ = readInt("title length"); n < 1 || n > 999 {
					return nil, fmt.Errorf("sphinx: %s: not a sendump file (title length %d)", name, n)
				}
			}
			first = false
		}
		if n == 0 {
			break
		}
		if n < 0 || n > 4096 || len(data)-off < n {
			return nil, fmt.Errorf("sphinx: %s: header string of %d bytes at %d: %w", name, n, off, errTruncated)
		}
		s := data[off : off+n]
		off += n
		if nstr < 2 && s[n-1] != 0 { // the peer checks only title and header
			return nil, fmt.Errorf("sphinx: %s: header string not NUL-terminated", name)
		}
		nstr++
		line := string(bytes.TrimRight(s, "\x00"))
		key, val, _ := strings.Cut(line, " ")
		num := func() (int, error) {
			v, err := strconv.Atoi(strings.TrimSpace(val))
			if err != nil {
				return 0, fmt.Errorf("sphinx: %s: header %q: %v", name, line, err)
			}
			return v, nil
		}
		var err2 error
		switch key {
		case "feature_count":
			var v int
			if v, err2 = num(); err2 == nil && v != nFeat {
				err2 = fmt.Errorf("sphinx: %s: %d feature streams, model has %d", name, v, nFeat)
			}
		case "mixture_count":
			var v int
			if v, err2 = num(); err2 == nil && v != nDensity {
				err2 = fmt.Errorf("sphinx: %s: %d densities, model has %d", name, v, nDensity)
			}
		case "model_count":
			var v int
			if v, err2 = num(); err2 == nil && v != nSen {
				err2 = fmt.Errorf("sphinx: %s: %d senones, model has %d", name, v, nSen)
			}
		case "cluster_count":
			clusters, err2 = num()
		case "cluster_bits":
			bits, err2 = num()
		}
		if err2 != nil {
			return nil, err2
		}
	}
	if clusters != 0 || bits != 8 {
		return nil, fmt.Errorf("sphinx: %s: clustered weights (cluster_count %d, cluster_bits %d) are not supported", name, clusters, bits)
	}
	rows, err := readInt("row count")
	if err != nil {
		return nil, err
	}
	cols, err := readInt("column count")
	if err != nil {
		return nil, err
	}
	if rows != nDensity || cols < nSen || cols > nSen+16 {
		return nil, fmt.Errorf("sphinx: %s: %d×%d weights, want %d densities × %d senones", name, rows, cols, nDensity, nSen)
	}
	need := nFeat * rows * cols
	if len(data)-off < need {
		return nil, fmt.Errorf("sphinx: %s: weights need %d bytes, %d left: %w", name, need, len(data)-off, errTruncated)
	}
	if len(data)-off != need {
		return nil, fmt.Errorf("sphinx: %s: %d trailing bytes", name, len(data)-off-need)
	}
	mw := &MixWeights{NFeat: nFeat, NDensity: nDensity, NSen: nSen, W: make([]uint8, nFeat*nDensity*nSen)}
	for r := range nFeat * rows {
		copy(mw.W[r*nSen:(r+1)*nSen], data[off+r*cols:])
	}
	return mw, nil
}
