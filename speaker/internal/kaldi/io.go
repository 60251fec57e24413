// Package kaldi reads the parts of a Kaldi x-vector model (an nnet3 network
// in Kaldi's binary format, a text mean vector, a binary whitening matrix)
// and computes what the network needs: Kaldi's MFCC for a given
// mfcc.conf, its energy voice-activity detection, sliding-window cepstral
// mean normalisation, and the network's forward pass.
//
// Only what the x-vector networks of Kaldi's recipes use is supported:
// affine layers (AffineComponent, NaturalGradientAffineComponent),
// RectifiedLinearComponent, BatchNormComponent (run in test mode),
// StatisticsExtractionComponent and StatisticsPoolingComponent (LogSoftmax
// is read so that a training head after the embedding does not stop the
// reader, and refused if the output depends on it). Anything else is an
// error that names it; a malformed file is an error, never a panic.
package kaldi

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// maxElems bounds the values one vector or matrix in a file may claim, so a
// corrupt size cannot ask for gigabytes (the largest matrix of the Kaldi
// x-vector networks has 3000×5164 ≈ 15.5 M values).
const maxElems = 1 << 26

// reader walks a Kaldi binary stream: tokens are words ended by one space,
// numbers carry a leading byte with their size, vectors and matrices a
// "FV "/"DV "/"FM "/"DM " tag and their dimensions.
type reader struct {
	b []byte
	p int
}

func (r *reader) errf(format string, args ...any) error {
	return fmt.Errorf("kaldi: at byte %d: %s", r.p, fmt.Sprintf(format, args...))
}

// skipSpace skips the whitespace Kaldi's readers skip before a token or
// a boolean.
func (r *reader) skipSpace() {
	for r.p < len(r.b) && (r.b[r.p] == ' ' || r.b[r.p] == '\n' || r.b[r.p] == '\t' || r.b[r.p] == '\r') {
		r.p++
	}
}

// token reads a word and the one whitespace byte after it.
func (r *reader) token() (string, error) {
	r.skipSpace()
	start := r.p
	for r.p < len(r.b) && r.b[r.p] != ' ' && r.b[r.p] != '\n' && r.b[r.p] != '\t' && r.b[r.p] != '\r' {
		r.p++
		if r.p-start > 256 {
			return "", r.errf("token longer than 256 bytes")
		}
	}
	if r.p == start {
		return "", r.errf("expected a token, found end of data")
	}
	tok := string(r.b[start:r.p])
	if r.p < len(r.b) {
		r.p++
	}
	return tok, nil
}

func (r *reader) expect(want string) error {
	tok, err := r.token()
	if err != nil {
		return err
	}
	if tok != want {
		return r.errf("expected %q, found %q", want, tok)
	}
	return nil
}

// int32 reads a size byte of 4 and a little-endian int32.
func (r *reader) int32() (int, error) {
	if r.p+5 > len(r.b) {
		return 0, r.errf("integer cut short")
	}
	if r.b[r.p] != 4 {
		return 0, r.errf("integer of size %d, expected 4", r.b[r.p])
	}
	v := int32(binary.LittleEndian.Uint32(r.b[r.p+1:]))
	r.p += 5
	return int(v), nil
}

// float reads a size byte of 4 or 8 and a float32 or float64.
func (r *reader) float() (float64, error) {
	if r.p >= len(r.b) {
		return 0, r.errf("number cut short")
	}
	n := int(r.b[r.p])
	if (n != 4 && n != 8) || r.p+1+n > len(r.b) {
		return 0, r.errf("bad or cut short number of size %d", n)
	}
	var v float64
	if n == 4 {
		v = float64(math.Float32frombits(binary.LittleEndian.Uint32(r.b[r.p+1:])))
	} else {
		v = math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.p+1:]))
	}
	r.p += 1 + n
	return v, nil
}

// bool reads Kaldi's binary boolean, a 'T' or 'F' byte.
func (r *reader) bool() (bool, error) {
	r.skipSpace()
	if r.p >= len(r.b) {
		return false, r.errf("boolean cut short")
	}
	c := r.b[r.p]
	if c != 'T' && c != 'F' {
		return false, r.errf("expected a boolean T or F, found byte %d", c)
	}
	r.p++
	return c == 'T', nil
}

// values reads n float32 or float64 values as float32.
func (r *reader) values(n int, double bool) ([]float32, error) {
	size := 4
	if double {
		size = 8
	}
	if n < 0 || n > maxElems || r.p+n*size > len(r.b) {
		return nil, r.errf("%d values do not fit in the %d bytes left", n, len(r.b)-r.p)
	}
	out := make([]float32, n)
	for i := range out {
		if double {
			out[i] = float32(math.Float64frombits(binary.LittleEndian.Uint64(r.b[r.p:])))
		} else {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.b[r.p:]))
		}
		r.p += size
	}
	return out, nil
}

// vector reads a binary vector ("FV " or "DV ", its dimension, values).
func (r *reader) vector() ([]float32, error) {
	tag, err := r.token()
	if err != nil {
		return nil, err
	}
	if tag != "FV" && tag != "DV" {
		return nil, r.errf("expected a vector (FV or DV), found %q", tag)
	}
	n, err := r.int32()
	if err != nil {
		return nil, err
	}
	return r.values(n, tag == "DV")
}

// Matrix is a row-major matrix of float32 values.
type Matrix struct {
	Rows, Cols int
	Data       []float32 // Rows·Cols values, row after row
}

// Row returns row i.
func (m *Matrix) Row(i int) []float32 { return m.Data[i*m.Cols : (i+1)*m.Cols] }

// matrix reads a binary matrix ("FM " or "DM ", rows, columns, values).
// Compressed matrices ("CM") are refused.
func (r *reader) matrix() (*Matrix, error) {
	tag, err := r.token()
	if err != nil {
		return nil, err
	}
	if tag != "FM" && tag != "DM" {
		return nil, r.errf("expected an uncompressed matrix (FM or DM), found %q", tag)
	}
	rows, err := r.int32()
	if err != nil {
		return nil, err
	}
	cols, err := r.int32()
	if err != nil {
		return nil, err
	}
	if rows < 0 || cols < 0 || (cols > 0 && rows > maxElems/cols) {
		return nil, r.errf("bad matrix size %d×%d", rows, cols)
	}
	data, err := r.values(rows*cols, tag == "DM")
	if err != nil {
		return nil, err
	}
	return &Matrix{Rows: rows, Cols: cols, Data: data}, nil
}

// binaryHeader is the two bytes that open a Kaldi binary object.
const binaryHeader = "\x00B"

// ReadMatrix reads a matrix as Kaldi's copy-matrix writes it, binary
// ("\0B" then FM or DM) or text ("[ a b c\n d e f ]").
func ReadMatrix(data []byte) (*Matrix, error) {
	if strings.HasPrefix(string(data), binaryHeader) {
		r := &reader{b: data, p: 2}
		m, err := r.matrix()
		if err != nil {
			return nil, err
		}
		r.skipSpace()
		if r.p != len(data) {
			return nil, r.errf("%d bytes after the matrix", len(data)-r.p)
		}
		return m, nil
	}
	rows, err := textRows(string(data))
	if err != nil {
		return nil, err
	}
	m := &Matrix{Rows: len(rows)}
	for i, row := range rows {
		if i == 0 {
			m.Cols = len(row)
		} else if len(row) != m.Cols {
			return nil, fmt.Errorf("kaldi: text matrix row %d has %d values, row 0 has %d", i, len(row), m.Cols)
		}
		m.Data = append(m.Data, row...)
	}
	return m, nil
}

// ReadVector reads a vector as Kaldi writes it in text ("[ 1.5 -2 3 ]"),
// the form of an x-vector recipe's mean.vec, or in binary ("\0B" then
// FV or DV).
func ReadVector(data []byte) ([]float32, error) {
	if strings.HasPrefix(string(data), binaryHeader) {
		r := &reader{b: data, p: 2}
		v, err := r.vector()
		if err != nil {
			return nil, err
		}
		r.skipSpace()
		if r.p != len(data) {
			return nil, r.errf("%d bytes after the vector", len(data)-r.p)
		}
		return v, nil
	}
	rows, err := textRows(string(data))
	if err != nil {
		return nil, err
	}
	var v []float32
	for _, row := range rows {
		v = append(v, row...)
	}
	return v, nil
}

// textRows parses "[ ... ]", one row per line.
func textRows(s string) ([][]float32, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, errors.New("kaldi: text vector or matrix is not enclosed in [ ]")
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	if s == "" {
		return [][]float32{{}}, nil
	}
	var rows [][]float32
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		row := make([]float32, len(f))
		for i, w := range f {
			x, err := strconv.ParseFloat(w, 32)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("kaldi: %q is not a finite number", w)
			}
			row[i] = float32(x)
		}
		rows = append(rows, row)
	}
	return rows, nil
}
